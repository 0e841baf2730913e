package schema

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

func TestJointMappingOfASnippetSearch(t *testing.T) {
	recs, probes := snippetRows()
	form := &rundir.Form{Action: "http://wiki.example/doku.php", Method: "GET", KeywordFields: []string{"q"},
		Fields: []rundir.Field{{Name: "q", Tag: "input", Type: "text", Label: "Search", Role: "keyword"}}}
	s, err := Build(t.Context(), recs, Input{Form: form, Probes: probes}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range s.Mapping {
		got = append(got, m.Field+"->"+m.Feature+"/"+m.Method+"/"+m.Relation)
	}
	snippet := ""
	for _, f := range s.Features {
		if f.Label == "Snippet" {
			snippet = f.Name
		}
		if f.Label == "Search" {
			t.Errorf("the keyword box names feature %s", f.Name)
		}
	}
	if !slices.Contains(got, "q->"+snippet+"/joint/contains") {
		t.Errorf("mappings %v, want q -> %s (joint, contains)", got, snippet)
	}
}

// books are 40 records of a catalogue: an id, a title and a year, one page of ten per
// probe.
func books() []records.Record {
	var out []records.Record
	for i := range 40 {
		out = append(out, records.Record{Page: fmt.Sprintf("pages/%04d-1.html", i/10+1), XPath: fmt.Sprintf("/html[1]/body[1]/table[1]/tr[%d]", i%10+1), Leaves: []records.Leaf{
			{Path: "td.id", Text: strconv.Itoa(5 * (i + 1))},
			{Path: "td.title", Text: fmt.Sprintf("%s %d", someTitles[i%len(someTitles)], i)},
			{Path: "td.year", Text: strconv.Itoa(1900 + 2*i)},
		}})
	}
	return out
}

func TestNoMappingFromDisplayFields(t *testing.T) {
	all := books()
	form := &rundir.Form{Action: "http://shop.example/search", Method: "GET", KeywordFields: []string{"q"}, Fields: []rundir.Field{
		{Name: "q", Tag: "input", Type: "text", Role: "keyword"},
		{Name: "to", Tag: "input", Type: "text", Label: "Published before"},
		{Name: "rows", Tag: "select", Type: "select", Options: []rundir.Option{{Value: "10", Text: "10"}, {Value: "20", Text: "20"}, {Value: "30", Text: "30"}, {Value: "40", Text: "40"}}},
		{Name: "order", Tag: "select", Type: "select", Role: "sort", Options: []rundir.Option{{Value: "1950", Text: "1950"}, {Value: "1960", Text: "1960"}}},
	}}
	// Both text fields filter the years: a keyword box that matched a year in the
	// text, and a real bound.
	sub := SubmitFunc(func(_ context.Context, v map[string]string) ([]records.Record, error) {
		var out []records.Record
		for _, r := range all {
			y, _ := strconv.Atoi(r.Leaves[2].Text)
			if lim, _ := strconv.Atoi(v["q"] + v["to"]); lim == 0 || y <= lim {
				out = append(out, r)
			}
		}
		if len(out) > 10 {
			out = out[len(out)-10:]
		}
		return out, nil
	})
	s, err := Build(t.Context(), all, Input{Form: form, Submitter: sub}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	year := ""
	for _, f := range s.Features {
		if f.Locations[0].Path == "td.year" {
			year = f.Name
		}
	}
	var got []string
	for _, m := range s.Mapping {
		got = append(got, m.Field+"->"+m.Feature+"/"+m.Relation)
		switch m.Field {
		case "q", "rows", "order":
			t.Errorf("%s mapped: %+v", m.Field, m)
		}
	}
	if !slices.Contains(got, "to->"+year+"/max") {
		t.Errorf("mappings %v, want to -> %s (max)", got, year)
	}
}

func TestNoBoundFromALimit(t *testing.T) {
	// A "show n records" field over a list sorted by id: typing an id k gives the ids
	// 1..k, all ≤ k, in k records. That is a count, not a bound.
	s := &Schema{Features: []Feature{{Name: "id", Key: "td.id#1", Type: TypeInteger}}}
	form := rundir.Form{Fields: []rundir.Field{{Name: "n", Type: "number"}, {Name: "to", Type: "number"}}}
	for _, k := range []int{12, 17, 23} {
		v := strconv.Itoa(k)
		s.Trials = append(s.Trials,
			Trial{Field: "n", Feature: "td.id#1", Value: v, Records: k, Instances: k, Matched: k, Passed: true, Relation: RelMax},
			Trial{Field: "to", Feature: "td.id#1", Value: v, Records: 10, Instances: 10, Matched: 10, Passed: true, Relation: RelMax})
	}
	s.decideTextMappings(form, DefaultOptions(), nil)
	if len(s.Mapping) != 1 || s.Mapping[0].Field != "to" || s.Mapping[0].Relation != RelMax {
		t.Errorf("mappings %+v, want only to -> id (max)", s.Mapping)
	}
}
