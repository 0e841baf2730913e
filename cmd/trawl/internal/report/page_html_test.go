package report_test

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
)

// TestOutlinePageSanitizes feeds outlinePage pages with one hostile construct each and
// checks that nothing of it survives in the embedded document, while the records are
// still outlined.
func TestOutlinePageSanitizes(t *testing.T) {
	const list = `<ul><li>Bleak House</li><li>Hard Times</li></ul>`
	recs := [][]string{{"/html[1]/body[1]/ul[1]/li[1]"}, {"/html[1]/body[1]/ul[1]/li[2]"}}
	tests := []struct {
		name, head, body string
		gone             []string // must not appear in the output
	}{
		{"script", "<script>alert(1)</script>", "<script src=https://evil.example/x.js></script>", []string{"alert(1)", "evil.example"}},
		{"event handler", "", `<img src=x onerror="alert(1)"><p onclick="alert(2)" onmouseover=alert(3)>p</p><body onload=alert(4)>`, []string{"alert(", "onerror", "onclick"}},
		{"remote image", "", `<img src="https://evil.example/pixel.gif" srcset="https://evil.example/2x.gif 2x" alt="logo">`, []string{"evil.example"}},
		{"stylesheet", `<link rel=stylesheet href="https://evil.example/s.css"><style>@import url(https://evil.example/i.css); body{background:url("https://evil.example/b.png")}</style>`, "", []string{"evil.example/s.css", "url(", "@import"}},
		{"inline style url", "", `<div style="background-image:url(https://evil.example/bg.png)">x</div>`, []string{"url("}},
		{"noscript markup", "", `<noscript><img src="https://evil.example/ns.gif"></noscript>`, []string{"evil.example", "noscript"}},
		{"frames and plugins", "", `<iframe src="https://evil.example/f"></iframe><object data="https://evil.example/o"></object><embed src="https://evil.example/e">`, []string{"evil.example", "<iframe", "<object", "<embed"}},
		{"meta refresh and base", `<meta http-equiv="refresh" content="0;url=https://evil.example/"><base href="https://evil.example/">`, "", []string{"evil.example", "refresh"}},
		{"svg", "", `<svg><image href="https://evil.example/i.svg"/><use xlink:href="https://evil.example/u.svg#a"/><foreignObject><img src="https://evil.example/fo.png"></foreignObject></svg>`, []string{"evil.example"}},
		{"links and forms", "", `<a href="javascript:alert(1)">j</a><a href="https://evil.example/">l</a><form action="https://evil.example/post"><button formaction="https://evil.example/b">go</button></form>`, []string{"javascript:", "evil.example"}},
		{"conditional comment", "", `<!--[if IE]><img src="https://evil.example/ie.gif"><![endif]-->`, []string{"evil.example"}},
		{"video", "", `<video poster="https://evil.example/p.jpg"><source src="https://evil.example/v.mp4"></video>`, []string{"evil.example"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The hostile part comes after the records, so their XPaths still hold.
			page := "<!DOCTYPE html><html><head>" + tc.head + "</head><body>" + list + tc.body + "</body></html>"
			op, err := report.OutlinePage([]byte(page), recs)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range tc.gone {
				if strings.Contains(op.Srcdoc, g) {
					t.Errorf("output still holds %q:\n%s", g, op.Srcdoc)
				}
			}
			if op.Found != 2 || op.Missed != 0 {
				t.Errorf("found %d, missed %d records, want 2 and 0 (problems %v)", op.Found, op.Missed, op.Problems)
			}
			doc, err := html.Parse(strings.NewReader(op.Srcdoc))
			if err != nil {
				t.Fatal(err)
			}
			runtest.CheckSelfContained(t, doc, true)
			if n := len(runtest.FindClass(doc, report.RecordClass)); n != 2 {
				t.Errorf("%d outlined elements, want 2", n)
			}
		})
	}
}

// TestOutlinePageXPaths checks the outlining of records: sibling records (Extra), an
// XPath that selects nothing, an invalid XPath and one that selects a text node.
func TestOutlinePageXPaths(t *testing.T) {
	page := `<html><body><dl><dt>Title</dt><dd>Bleak House</dd><dt>Title</dt><dd>Hard Times</dd></dl><p class="x y">text</p></body></html>`
	tests := []struct {
		name          string
		recs          [][]string
		found, missed int
		outlined      int
		problem       string
	}{
		{"sibling records", [][]string{{"/html[1]/body[1]/dl[1]/dt[1]", "/html[1]/body[1]/dl[1]/dd[1]"}, {"/html[1]/body[1]/dl[1]/dt[2]", "/html[1]/body[1]/dl[1]/dd[2]"}}, 2, 0, 4, ""},
		{"no such element", [][]string{{"/html[1]/body[1]/table[1]/tr[1]"}}, 0, 1, 0, "no such element"},
		{"invalid XPath", [][]string{{"/html[1]/body[1]/p[[["}}, 0, 1, 0, "p[[["},
		{"text node", [][]string{{"/html[1]/body[1]/p[1]/text()"}}, 0, 1, 0, ""},
		{"existing class kept", [][]string{{"/html[1]/body[1]/p[1]"}}, 1, 0, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			op, err := report.OutlinePage([]byte(page), tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			if op.Found != tc.found || op.Missed != tc.missed {
				t.Errorf("found %d missed %d, want %d and %d", op.Found, op.Missed, tc.found, tc.missed)
			}
			doc, _ := html.Parse(strings.NewReader(op.Srcdoc))
			marked := runtest.FindClass(doc, report.RecordClass)
			if len(marked) != tc.outlined {
				t.Errorf("%d outlined elements, want %d", len(marked), tc.outlined)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(op.Problems, "\n"), tc.problem) {
				t.Errorf("problems %q lack %q", op.Problems, tc.problem)
			}
			for _, n := range marked {
				if n.DataAtom == atom.P && !strings.Contains(runtest.Attr(n, "class"), "x y "+report.RecordClass) {
					t.Errorf("class = %q: the page's classes are lost", runtest.Attr(n, "class"))
				}
			}
		})
	}
}

func TestNeutralCSS(t *testing.T) {
	tests := []struct{ in, bad string }{
		{`a{background:url(x.png)}`, "url("},
		{`a{background:URL ( "x.png" )}`, "URL ("},
		{`@import "x.css";`, "@import"},
		{`a{background-image:image-set("a.png" 1x)}`, "image-set("},
		{`a{width:expression(alert(1))}`, "expression("},
		{`a{color:red}`, ""},
	}
	for _, tc := range tests {
		got := report.NeutralCSS(tc.in)
		if tc.bad == "" && got != tc.in {
			t.Errorf("report.NeutralCSS(%q) = %q, want it unchanged", tc.in, got)
		}
		if tc.bad != "" && strings.Contains(got, tc.bad) {
			t.Errorf("report.NeutralCSS(%q) = %q, still holds %q", tc.in, got, tc.bad)
		}
	}
}

// TestReadEnrichment reads the three reification modes of enrichment.nt.
func TestReadEnrichment(t *testing.T) {
	const (
		s    = "<https://trawl.invalid/src/x/entity/1>"
		rec  = "<https://trawl.invalid/src/x/rec/a>"
		conf = "<https://trawl.invalid/vocab#confidence>"
		lbl  = "<http://www.w3.org/2000/01/rdf-schema#label>"
		der  = "<http://www.w3.org/ns/prov#wasDerivedFrom>"
		rdf  = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	)
	fact := s + " " + lbl + ` "Bleak House" .`
	decl := s + " " + der + " " + rec + " ."
	tests := []struct {
		name     string
		nt       string
		conf     float64
		withProv bool
	}{
		{"rdf12", strings.Join([]string{fact, decl,
			`_:r1 <` + rdf + `reifies> <<( ` + s + " " + lbl + ` "Bleak House" )>> .`,
			`_:r1 ` + conf + ` "0.88"^^<http://www.w3.org/2001/XMLSchema#decimal> .`,
			`_:r1 ` + der + " " + rec + " ."}, "\n"), 0.88, true},
		{"rdf11", strings.Join([]string{fact, decl,
			`_:r1 <` + rdf + `type> <` + rdf + `Statement> .`,
			`_:r1 <` + rdf + `subject> ` + s + " .",
			`_:r1 <` + rdf + `predicate> ` + lbl + " .",
			`_:r1 <` + rdf + `object> "Bleak House" .`,
			`_:r1 ` + conf + ` "0.7"^^<http://www.w3.org/2001/XMLSchema#decimal> .`}, "\n"), 0.7, false},
		{"none", fact + "\n" + decl, -2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := report.ReadEnrichment(t.Context(), strings.NewReader(tc.nt+"\n"), "enrichment.nt")
			if err != nil {
				t.Fatal(err)
			}
			if tc.conf == -2 {
				if len(e.Facts) != 0 || len(e.Declarations) != 2 {
					t.Errorf("none: %d facts, %d declarations; want 0 and 2", len(e.Facts), len(e.Declarations))
				}
				return
			}
			if len(e.Facts) != 1 || len(e.Declarations) != 1 {
				t.Fatalf("%d facts, %d declarations; want 1 and 1", len(e.Facts), len(e.Declarations))
			}
			f := e.Facts[0]
			if f.Confidence != tc.conf || f.T.O.Value != "Bleak House" {
				t.Errorf("fact %+v", f)
			}
			if tc.withProv != (f.Record != "") {
				t.Errorf("record %q, want provenance %v", f.Record, tc.withProv)
			}
		})
	}
	_, err := report.ReadEnrichment(t.Context(), strings.NewReader(fact+"\n<bad\n"), "enrichment.nt")
	if err == nil || !strings.Contains(err.Error(), "enrichment.nt:2") {
		t.Errorf("bad line: error %v, want enrichment.nt:2", err)
	}
}
