package records

import (
	"fmt"
	"strings"
	"testing"
)

// pagePatterns returns the ranked candidate patterns of one page and their features,
// as the list model sees them.
func pagePatterns(t *testing.T, h string) ([]*sample, []*pattern, [][]float64) {
	t.Helper()
	o := DefaultOptions()
	o.Regions = RegionsAll
	x, err := newExtraction([]Page{{Name: "p", HTML: []byte(h)}}, &o)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.learnErrorPatterns(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := x.classifyPages(t.Context()); err != nil {
		t.Fatal(err)
	}
	samples := x.prepareSamples([]int{0}, &Template{})
	if len(samples) == 0 {
		t.Fatal("no sample page")
	}
	pats := recordPatterns(samples, &o)
	rank(samples, pats, &o)
	return samples, pats, listFeatures(samples, pats)
}

// featureOf returns feature name of the pattern whose first element has tag and class.
func featureOf(t *testing.T, samples []*sample, pats []*pattern, feats [][]float64, tag, class, name string) float64 {
	t.Helper()
	for i, pt := range pats {
		e := pt.byPage[0]
		if len(e) == 0 {
			continue
		}
		n := samples[0].p.elems[e[0]].n
		if n.Data == tag && attr(n, "class") == class {
			return feats[i][featureIndex[name]]
		}
	}
	t.Fatalf("no pattern <%s class=%q>", tag, class)
	return 0
}

// TestListFeaturesAmongLists checks the features of a list among the page's other
// lists and of what it says and links to, on a table whose records span two rows (a
// title row, then a details row), beside a menu of section links.
func TestListFeaturesAmongLists(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>Harbour news: ships and ferries</title></head><body>`)
	b.WriteString(`<ul class="menu"><li class="m"><a href="/about">About us</a></li><li class="m"><a href="/contact">Contact</a></li><li class="m"><a href="/help">Help</a></li><li class="m"><a href="/jobs">Jobs</a></li></ul>`)
	b.WriteString(`<div class="drawer"><ol class="small"><li class="s"><a href="/about">About us</a></li><li class="s"><a href="/contact">Contact</a></li><li class="s"><a href="/help">Help</a></li><li class="s"><a href="/jobs">Jobs</a></li></ol></div>`)
	b.WriteString(`<h1>Ferries this week</h1><table><tbody>`)
	for i := range 8 {
		fmt.Fprintf(&b, `<tr class="athing"><td class="rank">%d.</td><td class="vote"><div><b>▲</b></div></td><td class="line"><span><a href="/item/%d/ferry-number-%d">Ferry %d leaves the harbour at dawn</a></span></td></tr>`, i+1, 100+i, i, i)
		fmt.Fprintf(&b, `<tr><td colspan="2"></td><td class="subtext"><span class="score">%d points</span> by <a href="/user/c%d">captain</a> <span class="age"><a href="/item/%d">%d hours ago</a></span> | <a href="/item/%d">%d comments</a></td></tr>`, 10*i+3, i, 100+i, i+1, 100+i, 2*i)
	}
	b.WriteString(`</tbody></table></body></html>`)
	samples, pats, feats := pagePatterns(t, b.String())
	for _, c := range []struct {
		tag, class, feature string
		lo, hi              float64
		why                 string
	}{
		{"tr", "", "run_tail", 0.99, 1, "details rows follow the title rows"},
		{"tr", "athing", "run_tail", 0, 0, "title rows come first"},
		{"tr", "athing", "title_items", 1, 1, "ferry, harbour"},
		{"li", "m", "title_items", 0, 0, "menu"},
		{"tr", "athing", "href_item", 1, 1, "/item/100/ferry-number-0"},
		{"li", "m", "href_item", 0, 0, "/about"},
		{"tr", "athing", "href_depth", 0.75, 0.75, "three segments"},
		{"tr", "athing", "sibling_lists", 0.1, 10, "the details rows share their parent"},
		{"li", "m", "sibling_lists", 0, 0, "alone in its list"},
		{"li", "m", "copied_text", 1, 1, "the drawer holds a copy"},
		{"tr", "athing", "copied_text", 0, 0, "no copy"},
	} {
		if v := featureOf(t, samples, pats, feats, c.tag, c.class, c.feature); v < c.lo || v > c.hi {
			t.Errorf("<%s class=%q>: %s %.2f, want [%g, %g] (%s)", c.tag, c.class, c.feature, v, c.lo, c.hi, c.why)
		}
	}
}

func TestHrefShape(t *testing.T) {
	for _, c := range []struct {
		href string
		segs int
		item bool
	}{
		{"/about", 1, false},
		{"https://example.org/", 0, false},
		{"https://example.org", 0, false},
		{"//cdn.example.org/a/b", 2, false},
		{"/item/123", 2, true},
		{"/p/blue-wool-scarf?ref=home#top", 2, true},
		{"../books/./moby-dick", 2, false},
		{"#section-2", 0, false},
	} {
		segs, item := hrefShape(c.href)
		if segs != c.segs || item != c.item {
			t.Errorf("hrefShape(%q) = %d, %v; want %d, %v", c.href, segs, item, c.segs, c.item)
		}
	}
}

func TestTitleWords(t *testing.T) {
	p, err := parsePage("t", []byte(`<html><head><title>The best of Lisbon: trams</title></head><body><h1>Tram 28 in the old town</h1><h2>Not this</h2></body></html>`), false)
	if err != nil {
		t.Fatal(err)
	}
	got := titleWords(p)
	for _, w := range []string{"best", "lisbon", "trams", "tram", "old", "town"} {
		if !got[w] {
			t.Errorf("title words %v lack %q", got, w)
		}
	}
	for _, w := range []string{"the", "of", "28", "in", "not", "this"} {
		if got[w] {
			t.Errorf("title words %v hold %q", got, w)
		}
	}
}
