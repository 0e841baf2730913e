package records

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFeaturedRecords checks that a record shown apart from its list — a lead story in
// a wrapper of its own, with the list's story component inside — is a record under
// RegionsAll, and that blocks of another make-up, a component found all over the page,
// a copy of a listed record and a story in the page footer are not.
func TestFeaturedRecords(t *testing.T) {
	story := func(wrap, grid, title string, i int) string {
		return fmt.Sprintf(`<div class="%s"><div class="%s"><div class="primary"><img src="/i/%d.jpg"></div>`+
			`<div class="secondary"><span class="kicker">Dickens</span><h3><a href="/s/%d">%s</a></h3><p class="by">by Dickens staff, %d May</p></div></div></div>`,
			wrap, grid, i, i, title, i+1)
	}
	river := func() string {
		var b strings.Builder
		b.WriteString(`<div class="river">`)
		for i, title := range []string{"Bleak House returns", "Hard Times staged", "Little Dorrit restored", "Great Expectations sold", "Our Mutual Friend read"} {
			b.WriteString(story("story", "grid", title, i))
		}
		b.WriteString(`</div>`)
		return b.String()
	}
	lead := `<div class="lead">` + story("story", "grid large", "A Christmas Carol found", 9) + `</div>`
	tests := []struct {
		name  string
		body  string
		river int      // the river's position among the divs of main
		extra []string // the records expected besides the five of the river
	}{
		{"lead story above the river", lead + river(), 2, []string{"/html[1]/body[1]/main[1]/div[1]/div[1]"}},
		{"lead story below the river", river() + lead, 1, []string{"/html[1]/body[1]/main[1]/div[2]/div[1]"}},
		{"a promotional block of another make-up", `<div class="promo"><div class="banner"><h3>Subscribe</h3><p>Every story, every morning.</p></div></div>` + river(), 2, nil},
		{"the component all over the page", scattered(story("box", "grid", "Sponsored reading", 7)) + river(), 1, nil},
		{"a copy of a river story kept for small screens", `<div class="mobile">` + story("story", "grid large", "Bleak House returns", 0) + `</div>` + river(), 2, nil},
		{"a story in the page footer", river() + `<footer>` + lead + `</footer>`, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := recordPaths(t, `<html><body><main>`+tc.body+`</main></body></html>`, RegionsAll)
			prefix := fmt.Sprintf("/html[1]/body[1]/main[1]/div[%d]/", tc.river)
			others := slices.DeleteFunc(slices.Clone(got), func(xp string) bool { return strings.HasPrefix(xp, prefix) })
			if len(got)-len(others) != 5 || !slices.Equal(others, tc.extra) {
				t.Errorf("records %v: want the 5 river stories and %v", got, tc.extra)
			}
		})
	}
	if got := recordPaths(t, `<html><body><main>`+lead+river()+`</main></body></html>`, RegionsBest); len(got) != 5 {
		t.Errorf("best region: %d records, want the 5 river stories: %v", len(got), got)
	}
}

// scattered places block in five containers of different tags, which make no list.
func scattered(block string) string {
	var b strings.Builder
	for _, tag := range []string{"aside", "section", "article", "figure", "blockquote"} {
		b.WriteString("<" + tag + ">" + block + "</" + tag + ">")
	}
	return b.String()
}
