package records

import (
	"fmt"
	"strings"
	"testing"
)

// TestTitledCardLists checks that a list of teaser cards (a picture, a title in a
// heading, a line of text) is records under RegionsAll although its words are no
// signifiers, and that lists without a picture, without a heading, without text beside
// the heading, of two cards, or inside a navigation landmark are not.
func TestTitledCardLists(t *testing.T) {
	card := func(img, title, line string) string {
		var b strings.Builder
		b.WriteString(`<a class="tile" href="/a/` + strings.ReplaceAll(title, " ", "-") + `"><div class="tile-body">`)
		if img != "" {
			fmt.Fprintf(&b, `<img src="/i/%s.jpg" alt="">`, img)
		}
		b.WriteString(`<div class="tile-text">` + title + line + `</div></div></a>`)
		return b.String()
	}
	titles := []string{"Spring reading list", "Poets of the lakes", "Ten river journeys", "Winter in the hills"}
	lines := []string{"Five books to start the season", "Verse from the northern fells", "Long walks along old towpaths", "Cold mornings and warm inns"}
	list := func(img bool, head, text bool, n int) string {
		var b strings.Builder
		b.WriteString(`<div class="spotlight">`)
		for i := range n {
			im := ""
			if img {
				im = fmt.Sprintf("p%d", i)
			}
			title, line := titles[i], ""
			if head {
				title = "<h2>" + title + "</h2>"
			} else {
				title = "<b>" + title + "</b>"
			}
			if text {
				line = "<p>" + lines[i] + "</p>"
			}
			b.WriteString(card(im, title, line))
		}
		b.WriteString(`</div>`)
		return b.String()
	}
	tests := []struct {
		name  string
		block string
		want  int
	}{
		{"cards of a picture, a heading and a line", list(true, true, true, 4), 4},
		{"three cards", list(true, true, true, 3), 3},
		{"no picture", list(false, true, true, 4), 0},
		{"no heading", list(true, false, true, 4), 0},
		{"a heading and no line", list(true, true, false, 4), 0},
		{"two cards", list(true, true, true, 2), 0},
		{"inside a nav landmark", `<nav>` + list(true, true, true, 4) + `</nav>`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><body><main>` + novels("Dickens") + `<section>` + tc.block + `</section></main></body></html>`
			got := recordPaths(t, page, RegionsAll)
			n := 0
			for _, xp := range got {
				if !strings.Contains(xp, "/li[") {
					n++
				}
			}
			if len(got)-n != 5 || n != tc.want {
				t.Errorf("records %v: want the 5 list records and %d cards", got, tc.want)
			}
		})
	}
	page := `<html><body><main>` + novels("Dickens") + `<section>` + tests[0].block + `</section></main></body></html>`
	if got := recordPaths(t, page, RegionsBest); len(got) != 5 {
		t.Errorf("best region: %d records, want the 5 list records: %v", len(got), got)
	}
}
