package schema

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

// snippetRows are result rows whose snippet (dd.snippet) the page cuts around the
// query's words, highlighted in strong.hit elements, as DokuWiki and gitweb do.
func snippetRows() ([]records.Record, []rundir.Probe) {
	words := []string{"java", "debian", "package"}
	texts := [][3]string{
		{"A library for", "that runs on", "and more"},
		{"Tools to build", "programs with", "easily"},
		{"The runtime of", "in the", "archive"},
		{"Headers of", "for the", "system"},
	}
	var out []records.Record
	var probes []rundir.Probe
	for p, w := range words {
		file := fmt.Sprintf("pages/%04d-1.html", p+1)
		probes = append(probes, rundir.Probe{N: p + 1, Kind: "harvest", Assignment: map[string]string{"q": w},
			Pages: []rundir.PageRef{{File: file, URL: "http://wiki.example/?q=" + w}}})
		for i, tx := range texts {
			leaves := []records.Leaf{
				{Path: "dt/a", Text: fmt.Sprintf("Page %d", i+1), Href: fmt.Sprintf("http://wiki.example/doku.php?id=p%d&s[]=%s", i+1, w)},
				{Path: "dd.snippet", Text: tx[0]},
				{Path: "dd.snippet/strong.hit[1]", Text: w},
				{Path: "dd.snippet", Text: tx[1]},
			}
			if i%2 == 0 {
				leaves = append(leaves, records.Leaf{Path: "dd.snippet/strong.hit[2]", Text: w}, records.Leaf{Path: "dd.snippet", Text: tx[2]})
			}
			out = append(out, records.Record{Page: file, XPath: fmt.Sprintf("/html[1]/body[1]/dl[1]/div[%d]", i+1), Leaves: leaves})
		}
	}
	return out, probes
}

func TestLearnJoins(t *testing.T) {
	recs, probes := snippetRows()
	rs, _ := prepare(recs, pageIndex(probes))
	got := learnJoins(rs)
	want := []Join{{Path: "dd.snippet", Inline: []string{"strong.hit"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("learnJoins mismatch (-want +got):\n%s", diff)
	}
	j := joinRecord(recs[0], got)
	if len(j.Leaves) != 2 || j.Leaves[1].Text != "A library for java that runs on java and more" {
		t.Errorf("joined record = %+v, want the title and the snippet in one piece", j.Leaves)
	}
	// Without query terms (a record read back for the graph) the schema's rule joins.
	if again := joinRecord(recs[0], got); !cmp.Equal(again, j) {
		t.Errorf("joinRecord is not deterministic: %+v vs %+v", again, j)
	}
}

func TestBuildReadsSnippetsWhole(t *testing.T) {
	recs, probes := snippetRows()
	s, err := Build(t.Context(), recs, Input{Probes: probes}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var snippet *Feature
	for i := range s.Features {
		if s.Features[i].Locations[0].Path == "dd.snippet" {
			snippet = &s.Features[i]
		}
		if s.Features[i].Locations[0].Path != "dd.snippet" && s.Features[i].Kind == KindText && s.Features[i].Locations[0].Path != "dt/a" {
			t.Errorf("a fragment or a highlight became a feature: %+v", s.Features[i])
		}
	}
	if snippet == nil || snippet.Multi || snippet.Label != "Snippet" {
		t.Fatalf("snippet feature = %+v, want one single-valued feature labelled Snippet", snippet)
	}
	if vals := s.Values(recs[1])[1]; len(vals) != 1 || vals[0] != "Tools to build java programs with" {
		t.Errorf("snippet values %q", vals)
	}
	if s.Identity == nil || s.Identity.Entities != 4 || !cmp.Equal(s.Identity.VolatileParams, []string{"s[]"}) {
		t.Errorf("identity = %+v, want 4 pages named by their link without s[]", s.Identity)
	}
	keys := map[string]bool{}
	for _, r := range recs {
		keys[s.RecordKey(r)] = true
	}
	if len(keys) != 4 {
		t.Errorf("%d record keys for 12 records of 4 pages, want 4", len(keys))
	}
}

func TestJoinText(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{[]string{"status lines for", "the", "three records"}, "status lines for the three records"},
		{[]string{"dpkg-", "dev", ", the tools"}, "dpkg-dev, the tools"},
		{[]string{"(", "java", ")"}, "(java)"},
		{[]string{"", "alone", " "}, "alone"},
	} {
		if got := joinText(tc.parts); got != tc.want {
			t.Errorf("joinText(%q) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}
