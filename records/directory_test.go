package records

import (
	"fmt"
	"strings"
	"testing"
)

// directoryBox is a box of a caption and n category links, one per paragraph.
func directoryBox(caption string, n int) string {
	var b strings.Builder
	b.WriteString(`<div class="box"><table><caption>` + caption + `</caption><tr><td>`)
	for k := range n {
		fmt.Fprintf(&b, `<p><a href="/c/%s/%d">%s topic %c</a></p>`, caption, k, caption, 'a'+k)
	}
	b.WriteString(`</td></tr></table></div>`)
	return b.String()
}

// TestLinkDirectory checks linkDirectory on single boxes.
func TestLinkDirectory(t *testing.T) {
	tags := ""
	for k := range 12 {
		tags += fmt.Sprintf(`<a href="/t/%d">theme %c</a> `, k, 'a'+k)
	}
	tests := []struct {
		name string
		box  string
		want bool
	}{
		{"a caption and twelve links", directoryBox("Routes", 12), true},
		{"twelve links and no caption", strings.Replace(directoryBox("Routes", 12), "<caption>Routes</caption>", "", 1), true},
		{"nine links", directoryBox("Routes", 9), false},
		{"a linked title, a snippet, twelve tags", `<div class="box"><a href="/b/1">Bleak House</a><p>A novel of the law.</p>` + tags + `</div>`, false},
		{"a caption, twelve links and a count after them", strings.Replace(directoryBox("Routes", 12), "</td>", "<span>12 routes</span></td>", 1), false},
		{"two texts before the links", strings.Replace(directoryBox("Routes", 12), "<caption>Routes</caption>", "<caption>Routes</caption><tr><td>Summer</td></tr>", 1), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, box := firstElement(t, tc.box, "div")
			if got := linkDirectory(p, box); got != tc.want {
				t.Errorf("linkDirectory = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLinkDirectoryNotRecord runs Extract on a grid of boxes: four trip boxes (a
// linked title, a length, a price) and two directories of links of the same make-up.
// The trips are the records, under RegionsBest and RegionsAll, and Apply after a JSON
// round trip finds the trips alone on another page.
func TestLinkDirectoryNotRecord(t *testing.T) {
	page := func(trips []string, dirs ...string) []byte {
		var b strings.Builder
		b.WriteString(`<html><body><main><div class="grid">`)
		for i, tr := range trips {
			fmt.Fprintf(&b, `<div class="box"><table><caption><a href="/trip/%d">%s</a></caption><tr><td><p>%d miles</p><p>$%d</p></td></tr></table></div>`, i, tr, 100+i*40, 300+i*25)
		}
		for _, d := range dirs {
			b.WriteString(directoryBox(d, 14))
		}
		b.WriteString(`</div></main></body></html>`)
		return []byte(b.String())
	}
	pages := []Page{
		{Name: "a.html", HTML: page([]string{"Coast road trip", "Desert road trip", "Lake road trip", "Canyon road trip"}, "Destinations", "Expenses"), Terms: []string{"road"}},
		{Name: "b.html", HTML: page([]string{"Forest road trip", "Valley road trip", "Island road trip"}, "Stops")},
	}
	for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
		w, got := recordXPaths(t, pages[:1], regions, "")
		if len(got) != 4 {
			t.Errorf("%s: records %q, want the four trips", regions, got)
		}
		if n := appliedCount(t, w, pages[1]); n != 3 {
			t.Errorf("%s: Apply found %d records on b.html, want the three trips", regions, n)
		}
	}
}
