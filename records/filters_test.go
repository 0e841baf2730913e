package records

import (
	"fmt"
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
		{"results of a Q&A site: linked questions are records", `<div class="results">` + repeat(3, func(i int) string {
			return `<div><a href="/q/` + strconv.Itoa(i) + `">How do I parse case ` + strconv.Itoa(i) + ` in Go?</a> <span>` + strconv.Itoa(i+3) + ` answers</span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkListReason(t, tc.body, tc.parent, tc.want) })
	}
}

// recordXPaths runs Extract on pages with the given region policy and returns the
// wrapper and the XPaths of the records of page name ("" for all pages).
func recordXPaths(t *testing.T, pages []Page, regions RegionPolicy, name string) (*Wrapper, []string) {
	t.Helper()
	o := DefaultOptions()
	o.Regions = regions
	w, recs, err := Extract(t.Context(), pages, o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		if name == "" || r.Page == name {
			got = append(got, r.XPath)
		}
	}
	return w, got
}

// appliedCount applies wrapper w, written as JSON and read back, to page pg and returns
// the number of records found.
func appliedCount(t *testing.T, w *Wrapper, pg Page) int {
	t.Helper()
	a, err := NewApplier(roundTrip(t, w), DefaultApplyOptions())
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := a.Apply(t.Context(), pg)
	if err != nil {
		t.Fatal(err)
	}
	return len(got)
}

// firstElement parses the body body and returns the page with its first element of
// tag tag (-1 if none).
func firstElement(t *testing.T, body, tag string) (*page, int32) {
	t.Helper()
	p, err := parsePage("item", []byte("<html><body>"+body+"</body></html>"), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.elems {
		if p.elems[i].tag == tag {
			return p, int32(i)
		}
	}
	return p, -1
}

// checkListReason finds the candidate lists of a page whose body is body and checks
// that one of the lists below parent (an absolute XPath) has the navigation reason want
// ("" for records).
func checkListReason(t *testing.T, body, parent, want string) {
	t.Helper()
	p, err := parsePage("list", []byte("<html><body>"+body+"</body></html>"), false)
	if err != nil {
		t.Fatal(err)
	}
	s := &sample{p: p, types: typeHashes(p, DefaultTypeAttributes), names: DefaultTypeAttributes}
	findLists(s)
	var got []string
	for _, l := range s.lists {
		if absXPath(p.elems[l.parent].n) == parent {
			if l.nav == want {
				return
			}
			got = append(got, l.nav)
		}
	}
	t.Errorf("lists below %s: reasons %q, want %q", parent, got, want)
}

// TestListsOfRecordsInsideRecords checks that lists of ten items made up alike, one in
// each section of a page, are records (a top ten under each heading), not a tuple of
// fields of the sections; the fixed cells of table rows stay fields.
func TestListsOfRecordsInsideRecords(t *testing.T) {
	adjectives := []string{"Silent", "Crimson", "Hidden", "Frozen", "Golden", "Broken", "Distant", "Wandering", "Burning", "Forgotten"}
	nouns := []string{"Harbour", "Garden", "Kingdom", "Voyage"}
	var b strings.Builder
	b.WriteString(`<html><body><main>`)
	for s := range 4 {
		if s%2 == 0 {
			b.WriteString(`<div class="wrap">`)
		}
		fmt.Fprintf(&b, `<div class="column"><section class="top"><h2>Top series of the %s</h2><a class="all" href="/all/%d">See all</a><ul>`, nouns[s], s)
		for i := range 10 {
			fmt.Fprintf(&b, `<li><a href="/s/%d/%d">%s %s</a> <span class="score">%d%%</span></li>`, s, i, adjectives[i], nouns[s], 50+s*10+i)
		}
		b.WriteString(`</ul></section></div>`)
		if s%2 == 1 {
			b.WriteString(`</div>`)
		}
	}
	b.WriteString(`</main></body></html>`)
	w, got := recordXPaths(t, []Page{{Name: "tops", HTML: []byte(b.String())}}, RegionsAll, "")
	items := 0
	for _, xp := range got {
		if strings.HasSuffix(xp[:strings.LastIndexByte(xp, '/')], "/ul[1]") {
			items++
		}
	}
	if items != 40 || len(got) != 40 {
		t.Errorf("%d records of which %d list items, want the 40 items (xpath %s)", len(got), items, w.XPath)
	}

	// five specifications under the same labels in every product are its fields
	var shop strings.Builder
	shop.WriteString(`<html><body><h1>Oak furniture</h1><div class="results">`)
	for i, n := range []string{"desk", "table", "shelf", "stool"} {
		fmt.Fprintf(&shop, `<div class="product"><h3><a href="/p/%d">Oak %s</a></h3><ul class="specs">`, i, n)
		for j, k := range []string{"Weight", "Height", "Width", "Colour", "Material"} {
			fmt.Fprintf(&shop, `<li><span>%s</span><span>%d cm</span></li>`, k, 10*i+j)
		}
		shop.WriteString(`</ul></div>`)
	}
	shop.WriteString(`</div></body></html>`)
	for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
		_, got := recordXPaths(t, []Page{{Name: "shop", HTML: []byte(shop.String()), Terms: []string{"oak"}}}, regions, "")
		if len(got) != 4 || !strings.HasSuffix(got[0], "/div[1]/div[1]") {
			t.Errorf("%s: records %v, want the 4 products (their specifications are fields)", regions, got)
		}
	}

	rows := `<table><tbody>` + strings.Repeat(`<tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td></tr>`, 4) + `</tbody></table>`
	p, err := parsePage("rows", []byte(`<html><body>`+rows+`</body></html>`), false)
	if err != nil {
		t.Fatal(err)
	}
	var cells []list
	s := &sample{p: p, types: typeHashes(p, DefaultTypeAttributes), names: DefaultTypeAttributes}
	findLists(s)
	for _, l := range s.lists {
		if p.elems[l.members[0]].tag == "td" {
			cells = append(cells, l)
		}
	}
	if len(cells) == 0 || recordLike([]*sample{s}, &pattern{tag: "td", lists: cells}) {
		t.Errorf("the cells of table rows are taken for records (%d cell lists)", len(cells))
	}
}
