package records

import (
	"strconv"
	"strings"
	"testing"
)

// TestListFilters checks why candidate lists are not records: the reason navigation
// gives each list of small pages, one rule per case, with a counter-example that must
// stay a list of records.
func TestListFilters(t *testing.T) {
	repeat := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	days := repeat(30, func(i int) string {
		return `<div class="day"><span>June ` + strconv.Itoa(i+1) + `, 2024</span><b>` + strconv.Itoa(i+1) + `</b></div>`
	})
	trains := repeat(6, func(i int) string {
		return `<div class="train"><b>Train ` + strconv.Itoa(410+i) + `</b> <span>departs ` + strconv.Itoa(i+6) + `:15</span> <span>arrives ` + strconv.Itoa(i+9) + `:40</span> <span>platform ` + strconv.Itoa(i+2) + `</span></div>`
	})
	tests := []struct {
		name   string
		body   string
		parent string // absolute XPath of the list's parent
		want   string // nav reason ("" for records)
	}{
		{"records", `<ul><li><a href="/a">Bleak House</a> <span>Dickens, 1853</span></li><li><a href="/b">Hard Times</a> <span>Dickens, 1854</span></li><li><a href="/c">Little Dorrit</a> <span>Dickens, 1857</span></li></ul>`,
			"/html[1]/body[1]/ul[1]", ""},
		{"header cells", `<table><tr><th>Title</th><th>Author</th><th>Year</th></tr><tr><td>Bleak House</td><td>Dickens</td><td>1853</td></tr></table>`,
			"/html[1]/body[1]/table[1]/tbody[1]/tr[1]", "header cells"},
		{"tabs with a responsive copy of their label", `<ul><li><b>Strength</b><a href="#s">Strength</a></li><li><b>Nutrition</b><a href="#n">Nutrition</a></li><li><b>Badges</b><a href="#b">Badges</a></li></ul>`,
			"/html[1]/body[1]/ul[1]", "labels"},
		{"gallery: image and caption are a record", `<div><figure><img src="a.jpg"><figcaption>Harbour</figcaption></figure><figure><img src="b.jpg"><figcaption>Lighthouse</figcaption></figure></div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"calendar days", `<div class="month">` + days + `</div>`,
			"/html[1]/body[1]/div[1]", "repeated widget"},
		{"timetable: rows that differ by their numbers only", `<div class="trains">` + trains + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"modal dialog", `<div aria-modal="true"><ul><li><b>Analytics</b> <span>measure visits to the site</span></li><li><b>Marketing</b> <span>show offers on other sites</span></li></ul></div>`,
			"/html[1]/body[1]/div[1]/ul[1]", "inside a modal dialog"},
		{"filter panel", `<form>` + repeat(3, func(i int) string {
			return `<details><summary>Facet ` + string(rune('A'+i)) + `</summary><ul>` + repeat(3, func(j int) string {
				return `<li><label><input type="checkbox"> value ` + string(rune('a'+j)) + `</label></li>`
			}) + `</ul><p>Pick any of the values of this facet to narrow the results down</p></details>`
		}) + `</form>`,
			"/html[1]/body[1]/form[1]", "filter groups"},
		{"filter panel with a facet of a single option", `<form>` + repeat(3, func(i int) string {
			n := 3
			if i == 2 {
				n = 1 // one option makes no list
			}
			return `<details><summary>Facet ` + string(rune('A'+i)) + `</summary><ul>` + repeat(n, func(j int) string {
				return `<li><label><input type="checkbox"> value ` + string(rune('a'+j)) + `</label></li>`
			}) + `</ul><p>Pick any of the values of this facet to narrow the results down</p></details>`
		}) + `</form>`,
			"/html[1]/body[1]/form[1]", "filter groups"},
		{"references", `<ol class="references">` + repeat(4, func(i int) string {
			return `<li><span><a href="#cite-` + strconv.Itoa(i) + `">^</a></span> <span><a href="/s` + strconv.Itoa(i) + `">Source ` + strconv.Itoa(i) + `</a>, retrieved 12 May 2024</span></li>`
		}) + `</ol>`,
			"/html[1]/body[1]/ol[1]", "notes"},
		{"endnotes by role", `<ol>` + repeat(3, func(i int) string {
			return `<li role="doc-endnote"><p>See the census of 19` + strconv.Itoa(50+i) + ` for the figures of this table</p></li>`
		}) + `</ol>`,
			"/html[1]/body[1]/ol[1]", "notes"},
		{"questions answered in place", `<div class="faq">` + repeat(3, func(i int) string {
			return `<div><h3>How do I return item ` + strconv.Itoa(i) + `?</h3><p>Send it back within 30 days with its receipt.</p></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", "questions"},
		{"results of a Q&A site: linked questions are records", `<div class="results">` + repeat(3, func(i int) string {
			return `<div><a href="/q/` + strconv.Itoa(i) + `">How do I parse case ` + strconv.Itoa(i) + ` in Go?</a> <span>` + strconv.Itoa(i+3) + ` answers</span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePage(tc.name, []byte("<html><body>"+tc.body+"</body></html>"), false)
			if err != nil {
				t.Fatal(err)
			}
			s := &sample{p: p, types: typeHashes(p, DefaultTypeAttributes), names: DefaultTypeAttributes}
			findLists(s)
			var got []string
			for _, l := range s.lists {
				if absXPath(p.elems[l.parent].n) == tc.parent {
					if l.nav == tc.want {
						return
					}
					got = append(got, l.nav)
				}
			}
			t.Errorf("lists below %s: reasons %q, want %q", tc.parent, got, tc.want)
		})
	}
}

// TestSpecificLists checks specificList, which keeps a list that holds no signifier
// under RegionsAll: items alike in make-up, of words specific to their page.
func TestSpecificLists(t *testing.T) {
	drugs := `<li><b>Ibuprofen</b> <span>200mg</span> <i>effective</i></li>` +
		`<li><b>Paracetamol</b> <span>500mg</span> <i>tolerated</i></li>` +
		`<li><b>Naproxen</b> <span>250mg</span> <i>recommended</i></li>` +
		`<li><b>Aspirin</b> <span>75mg</span> <i>discontinued</i></li>`
	tests := []struct {
		name   string
		items  string
		common bool // every word of the page is found on every page of the corpus
		corpus bool // the page comes with a corpus of pages
		want   bool
	}{
		{"uniform items of specific words", drugs, false, true, true},
		{"the same words on every page (boilerplate)", drugs, true, true, false},
		{"no corpus", drugs, false, false, false},
		{"an optional field left out", drugs + `<li><b>Codeine</b> <i>restricted</i></li>`, false, true, true},
		{"items made up differently", drugs + `<li><b>Codeine</b> <i>restricted</i> <i>prescription</i> <span>30mg</span></li>`, false, true, false},
		{"two items", `<li><b>Ibuprofen</b> <span>200mg</span> <i>effective</i></li><li><b>Naproxen</b> <span>250mg</span> <i>recommended</i></li>`, false, true, false},
		{"two text leaves per item", `<li><b>Ibuprofen</b> <span>200mg</span></li><li><b>Naproxen</b> <span>250mg</span></li><li><b>Aspirin</b> <span>75mg</span></li>`, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePage(tc.name, []byte("<html><body><ul>"+tc.items+"</ul></body></html>"), false)
			if err != nil {
				t.Fatal(err)
			}
			const pages = 10
			df := map[string]int{}
			for _, tok := range p.toks {
				df[tok] = 1
				if tc.common {
					df[tok] = pages
				}
			}
			if tc.corpus {
				p.df, p.docs = df, pages
			}
			var items []int32
			for i := range p.elems {
				if p.elems[i].tag == "li" {
					items = append(items, int32(i))
				}
			}
			pt := &pattern{byPage: map[int][]int32{0: items}}
			if got := specificList([]*sample{{p: p}}, pt); got != tc.want {
				t.Errorf("specificList = %v, want %v (leaf kinds of the first item %q)", got, tc.want, leafKinds(p, items[0]))
			}
		})
	}
}
