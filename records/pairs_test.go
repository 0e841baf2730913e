package records

import (
	"strconv"
	"strings"
	"testing"
)

// TestNameValuePairs checks nameValueList and pairFields: a list of name–value pairs
// that stands apart from the records is no list of records; pairs inside the records
// of a list, and items that link, show an image or hold more fields, stay as they were.
func TestNameValuePairs(t *testing.T) {
	tray := `<div class="tray">` +
		`<div class="tile"><div><svg role="img"></svg><div>Today</div></div><div>Oct 26 - Oct 27</div></div>` +
		`<div class="tile"><div><svg role="img"></svg><div>This weekend</div></div><div>Oct 28 - Oct 29</div></div>` +
		`<div class="tile"><div><svg role="img"></svg><div>Next weekend</div></div><div>Nov 4 - Nov 5</div></div>` +
		`</div>`
	review := func(i int) string {
		n := strconv.Itoa(i)
		return `<div class="review"><h3><a href="/r/` + n + `">Dinner ` + n + `</a></h3><div class="scores">` +
			`<div class="score">Service <em>8.` + n + `</em></div><div class="score">Atmosphere <em>7.` + n + `</em></div><div class="score">Cuisine <em>9.` + n + `</em></div>` +
			`</div><p>Lovely evening number ` + n + `.</p></div>`
	}
	tests := []struct {
		name   string
		body   string
		parent string // absolute XPath of the list's parent
		want   string // nav reason ("" for records)
	}{
		{"a tray of suggested dates", tray, "/html[1]/body[1]/div[1]", navNameValue},
		{"the scores inside each review are fields", `<div class="reviews">` + review(1) + review(2) + review(3) + `</div>`,
			"/html[1]/body[1]/div[1]/div[2]/div[1]", ""},
		{"pairs whose values link", `<ul><li>Author <a href="/a/1">Ann Lee</a></li><li>Author <a href="/a/2">Bo Chen</a></li><li>Author <a href="/a/3">Cy Diaz</a></li></ul>`,
			"/html[1]/body[1]/ul[1]", ""},
		{"pairs beside an image", `<ul><li><img src="1.jpg"><b>Lisbon</b><span>from $120</span></li><li><img src="2.jpg"><b>Porto</b><span>from $90</span></li><li><img src="3.jpg"><b>Faro</b><span>from $80</span></li></ul>`,
			"/html[1]/body[1]/ul[1]", ""},
		{"rows of a table of two columns", `<table><tbody><tr><td>Lisbon</td><td>120</td></tr><tr><td>Porto</td><td>90</td></tr><tr><td>Faro</td><td>80</td></tr></tbody></table>`,
			"/html[1]/body[1]/table[1]/tbody[1]", ""},
		{"names with digits: years and counts", `<div class="years"><div><b>2023</b> <span>42 films</span></div><div><b>2022</b> <span>37 plays</span></div><div><b>2021</b> <span>30 books</span></div></div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"three fields per item", `<ul><li><b>Lisbon</b><span>Portugal</span><span>from $120</span></li><li><b>Porto</b><span>Portugal</span><span>from $90</span></li><li><b>Seville</b><span>Spain</span><span>from $80</span></li></ul>`,
			"/html[1]/body[1]/ul[1]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkListReason(t, tc.body, tc.parent, tc.want) })
	}
}

// TestNameValuePairsNotRecords runs Extract under RegionsAll on a page whose heading
// block holds a tray of suggested dates beside five hotel cards, with tf-idf signifiers
// over a small corpus of the site's pages, which all show the tray: the cards are the
// records, and the tray is none.
func TestNameValuePairsNotRecords(t *testing.T) {
	var b strings.Builder
	// the tray names the same choices on every page of the site
	tray := func(b *strings.Builder) {
		b.WriteString(`<div class="tray">`)
		for _, s := range [][2]string{{"Tonight", "Oct 26 - Oct 27"}, {"Next weekend", "Nov 1 - Nov 3"}, {"Following weekend", "Nov 8 - Nov 10"}} {
			b.WriteString(`<div class="tile"><div><svg role="img"></svg><div>` + s[0] + `</div></div><div>` + s[1] + `</div></div>`)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`<html><body><main><div class="head"><div class="title">Explore hotels in Boston</div>`)
	tray(&b)
	b.WriteString(`</div><div class="cards">`)
	for i, name := range []string{"Harbor Inn", "Beacon Suites", "Commons Hotel", "Back Bay Lodge", "Seaport Rooms"} {
		n := strconv.Itoa(i)
		b.WriteString(`<div class="card"><img src="/h/` + n + `.jpg"><h3><a href="/h/` + n + `">` + name + `</a></h3><span>Boston - Downtown</span><span>$` + strconv.Itoa(120+i) + ` per night</span></div>`)
	}
	b.WriteString(`</div></main></body></html>`)
	other := func(k int) Page {
		n := strconv.Itoa(k)
		var head strings.Builder
		tray(&head)
		return Page{Name: "other" + n + ".html", HTML: []byte(`<html><body><main><div class="head">` + head.String() + `</div><div class="list">` +
			`<div class="row"><a href="/x/` + n + `">Museum tour ` + n + `</a><span>Chicago</span><span>$20</span></div>` +
			`<div class="row"><a href="/y/` + n + `">River cruise ` + n + `</a><span>Chicago</span><span>$35</span></div>` +
			`<div class="row"><a href="/z/` + n + `">Food walk ` + n + `</a><span>Chicago</span><span>$50</span></div>` +
			`</div></main></body></html>`)}
	}
	pages := []Page{{Name: "hotels.html", HTML: []byte(b.String())}, other(1), other(2)}
	_, got := recordXPaths(t, pages, RegionsAll, "hotels.html")
	if len(got) != 5 || !strings.HasPrefix(got[0], "/html[1]/body[1]/main[1]/div[2]/div[") {
		t.Errorf("records %q, want the five cards of /html[1]/body[1]/main[1]/div[2]", got)
	}
}

// TestNameValuePairsOfTheQuery checks queryRecords: on response pages whose signifiers
// come from the query, pairs that hold the query term item by item are the records (a
// street lookup: each street with its postcode, no link), with several pages, one page
// or every region; without query terms the same list stays a list of pairs.
func TestNameValuePairsOfTheQuery(t *testing.T) {
	page := func(q string, names []string) []byte {
		var b strings.Builder
		b.WriteString(`<html><body><h1>Street finder</h1><form><input name="q" value="` + q + `"></form><ul class="results">`)
		for i, n := range names {
			b.WriteString(`<li><b>` + n + `</b><span>SW1A ` + strconv.Itoa(i+1) + `AA</span></li>`)
		}
		b.WriteString(`</ul></body></html>`)
		return []byte(b.String())
	}
	pages := []Page{
		{Name: "dickens", HTML: page("dickens", []string{"Dickens Lane", "Dickens Road", "Dickens Close", "Dickens Court"}), Terms: []string{"dickens"}},
		{Name: "austen", HTML: page("austen", []string{"Austen Way", "Austen Place", "Austen Row"}), Terms: []string{"austen"}},
	}
	for _, tc := range []struct {
		name    string
		pages   []Page
		regions RegionPolicy
		want    int
	}{
		{"two pages", pages, RegionsBest, 7},
		{"one page", pages[:1], RegionsBest, 4},
		{"every region", pages, RegionsAll, 7},
	} {
		if _, got := recordXPaths(t, tc.pages, tc.regions, ""); len(got) != tc.want {
			t.Errorf("%s: %d records %q, want %d streets", tc.name, len(got), got, tc.want)
		}
	}
	p, err := parsePage("dickens", pages[0].HTML, false)
	if err != nil {
		t.Fatal(err)
	}
	s := &sample{p: p, types: typeHashes(p, DefaultTypeAttributes), names: DefaultTypeAttributes}
	findLists(s)
	markSignifiers(p, []string{"dickens"}, nil)
	queryRecords(s, "tfidf")
	flagged := 0
	for _, l := range s.lists {
		if l.nav == navNameValue {
			flagged++
		}
	}
	if flagged != 1 {
		t.Errorf("%d lists of pairs with tf-idf signifiers, want the streets' list flagged", flagged)
	}
}
