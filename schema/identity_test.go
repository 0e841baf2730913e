package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

func TestCanonicalURL(t *testing.T) {
	for _, tc := range []struct {
		in       string
		volatile []string
		want     string
	}{
		{"http://w.example/doku.php?id=p1&s[]=java", []string{"s[]"}, "http://w.example/doku.php?id=p1"},
		{"http://g.example/gitweb.cgi?p=t.git;a=commit;h=abc#x", nil, "http://g.example/gitweb.cgi?a=commit&h=abc&p=t.git"},
		{"http://s.example/book/7?", nil, "http://s.example/book/7"},
	} {
		if got := canonicalURL(tc.in, tc.volatile); got != tc.want {
			t.Errorf("canonicalURL(%q, %v) = %q, want %q", tc.in, tc.volatile, got, tc.want)
		}
	}
}

// foundTwice are the records of three probes that each find the same four pages, with
// a hit count that follows the query and a session parameter in the link.
func foundTwice() ([]records.Record, []rundir.Probe) {
	var recs []records.Record
	var probes []rundir.Probe
	for p, w := range []string{"alpha", "beta", "gamma"} {
		file := fmt.Sprintf("pages/%04d-1.html", p+1)
		probes = append(probes, rundir.Probe{N: p + 1, Kind: "harvest", Assignment: map[string]string{"q": w},
			Pages: []rundir.PageRef{{File: file}}})
		for i := range 4 {
			recs = append(recs, records.Record{Page: file, XPath: fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", i+1), Leaves: []records.Leaf{
				{Path: "a.title", Text: someTitles[i], Href: fmt.Sprintf("http://s.example/item.php?id=%d&sid=%d", i+1, 1000+p)},
				{Path: "span.author", Text: someNames[i]},
				{Path: "span.hits", Text: fmt.Sprintf("%d hits", (i+2)*(p+3))},
			}})
		}
	}
	return recs, probes
}

func TestIdentityAcrossProbes(t *testing.T) {
	recs, probes := foundTwice()
	s, err := Build(t.Context(), recs, Input{Probes: probes}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if s.Identity == nil || s.Identity.Entities != 4 || strings.Join(s.Identity.VolatileParams, ",") != "sid" {
		t.Fatalf("identity = %+v, want 4 records named by item.php?id without sid", s.Identity)
	}
	for _, f := range s.Features {
		if want := f.Locations[0].Path == "span.hits"; f.PerQuery != want {
			t.Errorf("feature %s: per-query %v, want %v", f.Name, f.PerQuery, want)
		}
	}
	lo := DefaultLabeledOptions()
	lo.SourceID = "s-example"
	l, err := BuildLabeled(t.Context(), s, recs, lo)
	if err != nil {
		t.Fatal(err)
	}
	if l.Entities != 4 {
		t.Errorf("%d entities for 12 records of 4 items, want 4", l.Entities)
	}
	// Each entity carries the provenance of the three probes, outside its star.
	gen := 0
	for _, tr := range l.Provenance {
		if strings.HasSuffix(tr.P.Value, "wasGeneratedBy") && strings.Contains(tr.S.Value, "/rec/") {
			gen++
		}
	}
	if gen != 12 {
		t.Errorf("%d prov:wasGeneratedBy from records, want 12 (4 entities × 3 probes)", gen)
	}
	for _, tr := range l.Records {
		if strings.HasSuffix(tr.P.Value, "wasGeneratedBy") {
			t.Errorf("provenance in the record stars: %v", tr)
		}
		if strings.Contains(tr.O.Value, "sid=") {
			t.Errorf("the record's link keeps the session: %v", tr)
		}
	}
	// Without the link, the text identifies the record, without the per-query hits.
	r := recs[0]
	r.Leaves = r.Leaves[1:]
	r2 := recs[4]
	r2.Leaves = r2.Leaves[1:]
	if s.RecordKey(r) == "" || s.RecordKey(r) != s.RecordKey(r2) {
		t.Errorf("records without links: keys %q and %q, want one key (the hits follow the query)", s.RecordKey(r), s.RecordKey(r2))
	}
}

// A record whose page nests its own link differently (no link at the identifying
// location) is still the record another probe found with it, when its link's canonical
// URL names that record; a record whose links name no other record keeps a text key.
func TestRecordKeysLinkElsewhere(t *testing.T) {
	recs, probes := foundTwice()
	s, err := Build(t.Context(), recs, Input{Probes: probes}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	moved := recs[5] // item 2 of the second probe, its title link under a new wrapper
	moved.Leaves = append([]records.Leaf(nil), moved.Leaves...)
	moved.Leaves[0].Path = "span.curid/a.title"
	moved.Leaves[0].Href = "http://s.example/item.php?sid=77&id=2"
	other := records.Record{Page: "pages/0002-1.html", XPath: "/html[1]/body[1]/ul[1]/li[9]", Leaves: []records.Leaf{
		{Path: "span.curid/a.title", Text: "Elsewhere", Href: "http://s.example/item.php?id=99"},
	}}
	all := append(append([]records.Record(nil), recs...), moved, other)
	keys := s.RecordKeys(all)
	if s.RecordKey(moved) == keys[1] {
		t.Fatalf("the test needs a record RecordKey alone does not name: %q", keys[1])
	}
	if keys[len(all)-2] != keys[1] {
		t.Errorf("moved link: key %q, want item 2's key %q", keys[len(all)-2], keys[1])
	}
	if k := keys[len(all)-1]; k == "" || k == urlKey("http://s.example/item.php?id=99") {
		t.Errorf("a record whose link names no other record: key %q, want its text key", k)
	}
	lo := DefaultLabeledOptions()
	lo.SourceID = "s-example"
	l, err := BuildLabeled(t.Context(), s, all, lo)
	if err != nil {
		t.Fatal(err)
	}
	if l.Entities != 5 {
		t.Errorf("%d entities, want 5 (four items and the one named by nothing else)", l.Entities)
	}
}
