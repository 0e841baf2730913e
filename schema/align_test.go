package schema

import (
	"fmt"
	"testing"

	"github.com/trawl-dev/trawl/records"
)

func TestPathsNear(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"h3.title/a", "h3.title/span", true},                 // two inline elements
		{"div.price", "div.price-sale", true},                 // same tag, other class
		{"h3.title", "h3.title/a", true},                      // one inline element more
		{"td[2]", "td[3]", true},                              // near, but co-occurrence decides
		{"div.meta/span", "div.meta/div", false},              // block vs inline
		{"h3.title/a", "h3.title/a", false},                   // identical is not "near"
		{"div.a/span.x", "div.b/span.y", false},               // two steps differ
		{"li/div.info/span", "li/div.info/span/b/i", false},   // two steps more
		{"section/h2", "section/h2/em", true},                 //
		{"ul.tags/li", "ul.tags/li/a", true},                  //
		{"div.data-container/span.first-line", "td", false},   //
		{"div.data-container", "div.data-container/p", false}, // p is not inline
	}
	for _, tc := range tests {
		if got := pathsNear(tc.a, tc.b); got != tc.want {
			t.Errorf("pathsNear(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

var (
	someTitles = []string{"Great Expectations", "The Hunger Games", "Catching Fire", "The Idiot", "Dune", "War and Peace",
		"The Trial", "Emma", "Jane Eyre", "Dracula", "The Stranger", "Animal Farm", "Persuasion", "Moby-Dick"}
	someNames = []string{"Charles Dickens", "Suzanne Collins", "Fyodor Dostoevsky", "Frank Herbert", "Leo Tolstoy",
		"Franz Kafka", "Jane Austen", "Charlotte Brontë", "Bram Stoker", "Albert Camus", "George Orwell", "Herman Melville"}
	someCities = []string{"Paris", "London", "Moscow", "Prague", "Dublin", "Oslo", "Lisbon", "Vienna", "Rome", "Madrid"}
)

// recs builds records from rows of (path, text) pairs, one page per group of perPage.
func recs(perPage int, rows ...[]records.Leaf) []records.Record {
	var out []records.Record
	for i, leaves := range rows {
		out = append(out, records.Record{Page: fmt.Sprintf("pages/%04d-1.html", i/perPage+1), XPath: fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", i%perPage+1), Leaves: leaves})
	}
	return out
}

func TestBuildMergesNearPaths(t *testing.T) {
	// The title is a link when the book has a page, a span otherwise: one attribute.
	var rows [][]records.Leaf
	for i := range 12 {
		title := records.Leaf{Path: "h3.title/a", Text: someTitles[i], Href: fmt.Sprintf("http://shop.example/b/%d", i)}
		if i%4 == 0 {
			title = records.Leaf{Path: "h3.title/span", Text: someTitles[i]}
		}
		rows = append(rows, []records.Leaf{title, {Path: "span.year", Text: fmt.Sprint(1900 + i*3)}})
	}
	s, err := Build(t.Context(), recs(4, rows...), Input{}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Features {
		names = append(names, f.Name)
		if f.Name == "title" && len(f.Locations) != 2 {
			t.Errorf("title has locations %v, want the a and the span", f.Locations)
		}
		if f.Name == "title" && f.Records != 12 {
			t.Errorf("title has %d records, want 12", f.Records)
		}
	}
	if len(s.Features) != 3 {
		t.Errorf("features %v, want title, title-href, year", names)
	}
}

func TestBuildDropsTemplateRankAndEcho(t *testing.T) {
	var rows [][]records.Leaf
	for i := range 12 {
		page := i / 4
		rows = append(rows, []records.Leaf{
			{Path: "span.rank", Text: fmt.Sprintf("%d.", i%4+1)},
			{Path: "a.title", Text: someTitles[i]},
			{Path: "span.echo", Text: fmt.Sprintf("matches query %c", 'x'+page)},
			{Path: "span.stock", Text: "In stock"},
			{Path: "button", Text: "Add to cart"},
			{Path: "span.price", Text: fmt.Sprintf("$%d.99", 5+i)},
		})
	}
	s, err := Build(t.Context(), recs(4, rows...), Input{}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, d := range s.Dropped {
		reasons[d.Key] = d.Reason
	}
	want := map[string]string{"span.rank#1": DropRank, "span.echo#1 | sep:matches query": DropPageConstant, "span.stock#1": DropConstant, "button#1": DropConstant}
	for k, r := range want {
		if reasons[k] != r {
			t.Errorf("%s dropped as %q, want %q (dropped: %v)", k, reasons[k], r, reasons)
		}
	}
	if len(s.Features) != 2 || s.Features[0].Name != "title" || s.Features[1].Type != TypePrice {
		t.Errorf("features = %+v, want title and a price", s.Features)
	}
	if len(s.Volatile) != 2 {
		t.Errorf("volatile locations = %v, want the rank and the echo", s.Volatile)
	}
}

func TestBuildPositionalAndLists(t *testing.T) {
	// Cells without class repeat a fixed number of times (positional features); tags
	// repeat a variable number of times (one list feature).
	var rows [][]records.Leaf
	for i := range 10 {
		r := []records.Leaf{{Path: "td", Text: someNames[i]}, {Path: "td", Text: fmt.Sprint(20 + i)}, {Path: "td", Text: someCities[i]}}
		for k := range i%3 + 1 {
			r = append(r, records.Leaf{Path: "td/ul/li", Text: fmt.Sprintf("tag%c", 'a'+(i+k)%5)})
		}
		rows = append(rows, r)
	}
	s, err := Build(t.Context(), recs(5, rows...), Input{}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Features {
		got = append(got, fmt.Sprintf("%s:%s:%v", f.Key, f.Type, f.Multi))
	}
	want := []string{"td#1:string:false", "td#2:integer:false", "td#3:string:false", "td/ul/li:string:true"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("features = %v, want %v", got, want)
	}
}

func TestBuildLabelLeaves(t *testing.T) {
	var rows [][]records.Leaf
	for i := range 8 {
		rows = append(rows, []records.Leaf{
			{Path: "h2", Text: someTitles[i]},
			{Path: "dl/dt", Text: "Publisher"},
			{Path: "dl/dd", Text: someCities[i%5]},
			{Path: "p/b", Text: "Pages:"},
			{Path: "p", Text: fmt.Sprint(100 + i*9)},
		})
	}
	s, err := Build(t.Context(), recs(4, rows...), Input{}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{}
	for _, f := range s.Features {
		labels[f.Key] = f.Label
	}
	if labels["dl/dd#1"] != "Publisher" || labels["p#1"] != "Pages" {
		t.Errorf("labels = %v, want dl/dd: Publisher, p: Pages", labels)
	}
	if s.Feature("publisher") == nil || s.Feature("pages") == nil {
		t.Errorf("features not named from their labels: %v", labels)
	}
}

func TestBuildNoRecords(t *testing.T) {
	if _, err := Build(t.Context(), nil, Input{}, DefaultOptions()); err != ErrNoRecords {
		t.Errorf("Build(nil) error = %v, want ErrNoRecords", err)
	}
	o := DefaultOptions()
	o.TypeShare = 2
	if _, err := Build(t.Context(), recs(1, []records.Leaf{{Path: "a", Text: "x"}}), Input{}, o); err == nil {
		t.Error("Build with TypeShare 2: no error")
	}
}
