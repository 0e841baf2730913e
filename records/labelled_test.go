package records

import (
	"fmt"
	"strings"
	"testing"
)

// TestNamedRegionLists checks that a list that makes up a section with an accessible
// name is records under RegionsAll although its words are no signifiers, when its
// items are made up alike with three fields or more, and that the same list in a
// section without a name, a list of items of two fields or of varying make-up, and a
// list that is a small part of its named section are not.
func TestNamedRegionLists(t *testing.T) {
	card := func(place, trip, price string) string {
		return fmt.Sprintf(`<div class="card"><a href="/p/%s"><b>%s</b> <span>%s</span> <i>%s</i></a></div>`, place, place, trip, price)
	}
	cards := card("Lisbon", "2 hours, non-stop", "from $420") + card("Porto", "3 hours, one stop", "from $380") +
		card("Madeira", "4 hours, non-stop", "from $510") + card("Faro", "2 hours, non-stop", "from $300")
	twoFields := `<div class="card"><b>Lisbon</b> <span>from $420</span></div><div class="card"><b>Porto</b> <span>from $380</span></div><div class="card"><b>Faro</b> <span>from $300</span></div>`
	tests := []struct {
		name    string
		section string
		want    int // records of the section
	}{
		{"named by aria-label", `<section aria-label="Trips from $300"><h2>Trips from $300</h2><div class="row">` + cards + `</div></section>`, 4},
		{"named by aria-labelledby, role group", `<div role="group" aria-labelledby="t"><h2 id="t">Trips</h2><div class="row">` + cards + `</div></div>`, 4},
		{"no name", `<section><h2>Trips from $300</h2><div class="row">` + cards + `</div></section>`, 0},
		{"two fields per item", `<section aria-label="Trips"><div class="row">` + twoFields + `</div></section>`, 0},
		{"items of varying make-up", `<section aria-label="Trips"><div class="row">` +
			`<div class="card"><b>Lisbon</b> <span>day trip</span> <i>from $420</i></div><div class="card"><b>Porto</b> <span>weekend</span> <i>from $380</i></div>` +
			`<div class="card"><b>4 hours</b> <span>Madeira</span> <i>weekly</i></div><div class="card"><b>2 hours</b> <span>Faro</span> <i>daily</i></div></div></section>`, 0},
		{"a small part of the region", `<section aria-label="Trips"><p>` + strings.Repeat("Every trip we sell is chosen by our travel desk for its value and comfort. ", 6) +
			`</p><div class="row">` + cards + `</div></section>`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><body><main>` + novels("Dickens") + tc.section + `</main></body></html>`
			got := recordPaths(t, page, RegionsAll)
			n := 0
			for _, xp := range got {
				if strings.Contains(xp, "/li[") {
					continue
				}
				n++
			}
			if len(got)-n != 5 || n != tc.want {
				t.Errorf("records %v: want the 5 list records and %d of the section", got, tc.want)
			}
		})
	}
	page := `<html><body><main>` + novels("Dickens") + tests[0].section + `</main></body></html>`
	if got := recordPaths(t, page, RegionsBest); len(got) != 5 {
		t.Errorf("best region: %d records, want the 5 list records: %v", len(got), got)
	}
}
