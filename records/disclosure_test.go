package records

import (
	"strconv"
	"strings"
	"testing"
)

// TestDisclosureToggle checks disclosureToggle on single items.
func TestDisclosureToggle(t *testing.T) {
	tests := []struct {
		name string
		item string
		want bool
	}{
		{"a link that opens a panel", `<li class="item"><a href="#more" aria-expanded="false"><span aria-hidden="true">expand_less</span><p>Details</p></a></li>`, true},
		{"a button that opens a panel", `<li class="item"><button aria-expanded="true">More</button></li>`, true},
		{"the item itself carries the state", `<li class="item" aria-expanded="false"><a href="#x">More</a></li>`, true},
		{"a record with a toggle beside its fields", `<li class="item"><a href="/p/1">Oak table</a><span>$120</span><button aria-expanded="false">Details</button></li>`, false},
		{"a link without the state", `<li class="item"><a href="/p/1"><span>chair</span><p>Chairs</p></a></li>`, false},
		{"a state that is neither true nor false", `<li class="item"><a href="/p/1" aria-expanded="undefined">Chairs</a></li>`, false},
		{"no text", `<li class="item"><button aria-expanded="false"><img src="x.png"></button></li>`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, li := firstElement(t, "<ul>"+tc.item+"</ul>", "li")
			if got := disclosureToggle(p, li); got != tc.want {
				t.Errorf("disclosureToggle = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDisclosureToggleNotRecord runs Extract on a page whose category menu is followed
// by a second list of the same make-up holding a single "Details" entry that opens a
// panel (aria-expanded): the five categories are the records, the template XPath
// selects them exactly, and the wrapper read back from JSON finds the categories alone
// on another page.
func TestDisclosureToggleNotRecord(t *testing.T) {
	page := func(cats []string) []byte {
		var b strings.Builder
		b.WriteString(`<html><body><main><div class="side"><ul class="menu" role="list">`)
		for i, c := range cats {
			n := strconv.Itoa(i)
			b.WriteString(`<li class="item"><div><a href="/c/` + n + `"><span class="icon" aria-hidden="true">sym` + n + `</span><p>` + c + `</p></a></div></li>`)
		}
		b.WriteString(`</ul><ul class="menu" role="list"><li class="item"><div><a href="#more" aria-expanded="false"><span class="icon" aria-hidden="true">expand_less</span><p>Details</p></a></div></li></ul></div></main></body></html>`)
		return []byte(b.String())
	}
	pages := []Page{
		{Name: "a.html", HTML: page([]string{"Oak tables", "Pine chairs", "Oak chairs", "Teak tables", "Oak beds"}), Terms: []string{"oak"}},
		{Name: "b.html", HTML: page([]string{"Oak desks", "Oak shelves", "Birch tables", "Oak stools"}), Terms: []string{"oak"}},
	}
	for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
		w, got := recordXPaths(t, pages[:1], regions, "")
		if len(got) != 5 || !strings.HasPrefix(got[0], "/html[1]/body[1]/main[1]/div[1]/ul[1]/li[") {
			t.Errorf("%s: records %q, want the five entries of the first list", regions, got)
		}
		if len(w.Templates) == 0 || !w.Templates[0].XPathExact {
			t.Errorf("%s: the template XPath does not select the records exactly: %+v", regions, w.Templates)
		}
		if n := appliedCount(t, w, pages[1]); n != 4 {
			t.Errorf("%s: Apply found %d records on b.html, want the four entries", regions, n)
		}
	}
}
