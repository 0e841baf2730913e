package records

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// componentPage renders a result page built with a component library whose base class
// comes first on every element (div.Box-sc-…): a sort bar of two unlike blocks, an
// introduction alone in its container and the result cards sit in containers of the
// same type path, so the cards' element type fits them all. The cards carry their own
// component class (Card-sc-…) besides the base one. With wrap, the last card wraps its
// content in a bare span, as a framework's tooltip or lazy-loading wrapper does.
func componentPage(city string, titles []string, wrap bool) string {
	card := func(k int, title string) string {
		body := fmt.Sprintf(`<div class="Box-sc-1a2b-0 inner"><h3><a href="/c/%d">%s</a></h3><p>Clinic near Dickens Street in %s, open daily</p><span>%d reviews</span></div>`, k, title, city, 10*k+3)
		if wrap && k == len(titles) {
			body = `<span>` + body + `</span>`
		}
		return `<div class="Box-sc-1a2b-0 Card-sc-9x8y-1 kQzT">` + body + `</div>`
	}
	var cards strings.Builder
	for k, t := range titles {
		cards.WriteString(card(k+1, t))
	}
	return `<html><body><div class="Box-sc-1a2b-0 page">` +
		`<div class="Box-sc-1a2b-0 bar">` +
		`<div class="Box-sc-1a2b-0 sort"><div>Order by suggested, best value or review count</div></div>` +
		`<div class="Box-sc-1a2b-0 filter"><div><ul><li>Wifi (3)</li><li>Meals (5)</li><li>Parking (2)</li></ul></div></div>` +
		`</div>` +
		`<div class="Box-sc-1a2b-0 head"><div class="Box-sc-1a2b-0 intro"><div>Explore the clinics of ` + city +
		` near Dickens Street: opening hours, reviews, prices and the treatments each of them offers, with maps and directions for every one of the clinics listed below</div></div></div>` +
		`<div class="Box-sc-1a2b-0 list">` + cards.String() + `</div>` +
		`</div></body></html>`
}

// TestHomonymTokens covers blocks of the records' type that lack the records' own
// class tokens (a sort bar, an introduction): they are no records, on the sample pages
// and where the learnt wrapper is applied. It fails without learnTokens.
func TestHomonymTokens(t *testing.T) {
	pages := []Page{
		{Name: "boston", HTML: []byte(componentPage("Boston", []string{"Dickens Health", "Mayo Dickens", "Dickens Care", "Dickens Family"}, false)), Terms: []string{"dickens"}},
		{Name: "hartford", HTML: []byte(componentPage("Hartford", []string{"Dickens Wellness", "Dickens Point", "Dickens Centre"}, false)), Terms: []string{"dickens"}},
	}
	w, recs, err := Extract(t.Context(), pages, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var boston []Record
	for _, r := range recs {
		if r.Page == "boston" {
			boston = append(boston, r)
		}
	}
	checkRecordSuffixes(t, w, boston, []string{"/div[3]/div[1]", "/div[3]/div[2]", "/div[3]/div[3]", "/div[3]/div[4]"})
	if len(recs) != 7 {
		t.Errorf("%d records over both pages, want 7", len(recs))
	}
	rules := w.Templates[0].Rules
	if len(rules) != 1 || !slices.Equal(rules[0].Tokens, []string{"Card-sc-xy", "kQzT"}) {
		t.Fatalf("rules %+v, want one with the tokens of the cards' own classes", rules)
	}
	// the wrapper as written and read back applies the tokens to a new page
	got, pc, err := Apply(t.Context(), roundTrip(t, w), Page{Name: "windsor", HTML: []byte(componentPage("Windsor", []string{"Dickens Lake", "Dickens Hill"}, false)), Terms: []string{"dickens"}}, DefaultApplyOptions())
	if err != nil {
		t.Fatal(err)
	}
	if pc.Class != ClassResult || len(got) != 2 || !strings.HasSuffix(got[0].XPath, "/div[3]/div[1]") || !strings.HasSuffix(got[1].XPath, "/div[3]/div[2]") {
		t.Errorf("applied: class %s, records %v, want the two cards", pc.Class, got)
	}
}

// TestBareSpanWrapper covers a record whose content sits in a bare span (no
// attribute, one child, no text of its own): it is grouped with its siblings and
// returned as one record, not as the inner parts of a lone card. A span that carries
// attributes is a part of the layout and still sets the record apart. It fails
// without bareWrapper in shape.
func TestBareSpanWrapper(t *testing.T) {
	titles := []string{"Dickens Health", "Mayo Dickens", "Dickens Care", "Dickens Family", "Dickens Wellness"}
	bare := componentPage("Boston", titles, true)
	styled := strings.Replace(bare, `<span><div class="Box-sc-1a2b-0 inner">`, `<span class="tip" title="Sponsored"><div class="Box-sc-1a2b-0 inner">`, 1)
	if styled == bare {
		t.Fatal("the styled variant did not change the page")
	}
	tests := []struct {
		name, html string
		want       []string
	}{
		{"bare span", bare, []string{"/div[3]/div[1]", "/div[3]/div[2]", "/div[3]/div[3]", "/div[3]/div[4]", "/div[3]/div[5]"}},
		{"span with attributes", styled, []string{"/div[3]/div[1]", "/div[3]/div[2]", "/div[3]/div[3]", "/div[3]/div[4]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, recs, err := Extract(t.Context(), []Page{{Name: "p", HTML: []byte(tc.html), Terms: []string{"dickens"}}}, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			checkRecordSuffixes(t, w, recs, tc.want)
		})
	}
}
