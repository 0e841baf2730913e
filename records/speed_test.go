package records

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// TestTolerantASCII checks the ASCII path of tolerantForm against the general one
// (the thesis's reduction written with the Unicode tables), and that it takes every
// value whose first token is ASCII.
func TestTolerantASCII(t *testing.T) {
	general := func(v string) string {
		v = strings.TrimLeftFunc(v, unicode.IsSpace)
		if i := strings.IndexFunc(v, unicode.IsSpace); i >= 0 {
			v = v[:i]
		}
		if strings.IndexFunc(v, unicode.IsDigit) >= 0 {
			v = dropHexParts(v)
			v = strings.Map(func(r rune) rune {
				if unicode.IsDigit(r) {
					return -1
				}
				return r
			}, v)
		}
		return strings.Trim(v, "-_")
	}
	for _, v := range []string{"", " ", "post", "  post wrapper-02", "\tcard\nitem", "-_x_-", "__",
		"a\vb", "a\fb", "\u00a0post", "café", "item-12", "post\u00a0x", "x\u0085y", "--",
		"results-8c1fa2", "col-md-4 x", "a1b2-c3:9f.e7_z", "12", "-_3-", "uuid-123e4567-e89b-12d3",
		"x:1.2_3-", "ab12cd", "x-" + strings.Repeat("a1", 40)} {
		want := general(v)
		if got := tolerantForm(v); got != want {
			t.Errorf("tolerantForm(%q) = %q, want %q", v, got, want)
		}
		first := strings.TrimLeft(v, " \t\n\r\f\v")
		if i := strings.IndexAny(first, " \t\n\r\f\v"); i >= 0 {
			first = first[:i]
		}
		ascii := !strings.ContainsFunc(first, func(r rune) bool { return r >= 0x80 })
		got, ok := tolerantASCII(v)
		if ok != ascii {
			t.Errorf("tolerantASCII(%q): ok %v, want %v", v, ok, ascii)
		}
		if ok && got != want {
			t.Errorf("tolerantASCII(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestContentOK checks the native content test against the XPath engine's.
func TestContentOK(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<body><div id=a> <!-- x --> </div><div id=b><span> </span><img></div>
<div id=c>` + "\u00a0\u2003" + `</div><div id=d><p><b>x</b></p></div><p id=e><script>var x</script></p>
<div id=f>` + "\xc2" + `<i></i>` + "\xa0" + `</div><div id=g>` + "\xff" + `</div><ul id=h><li><img></li></ul><img id=i></body>`))
	if err != nil {
		t.Fatal(err)
	}
	expr := xpath.MustCompile("self::*" + contentTest)
	n := 0
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.ElementNode {
			n++
			want := htmlquery.QuerySelector(c, expr) != nil
			if got := contentOK(c); got != want {
				t.Errorf("<%s id=%s>: contentOK %v, XPath %v", c.Data, attr(c, "id"), got, want)
			}
		}
		for d := c.FirstChild; d != nil; d = d.NextSibling {
			walk(d)
		}
	}
	walk(doc)
	if n < 12 {
		t.Fatalf("%d elements checked", n)
	}
}

// auditXPaths makes every XPath the wrapper's self-check evaluates be evaluated by the
// XPath engine too, and fails t when the elements differ; the returned function
// removes the audit and reports how many XPaths were checked and were of the native
// form.
func auditXPaths(t *testing.T) func() (checked, native int) {
	checked, native := 0, 0
	xpathAudit = func(doc *html.Node, xp string, got []*html.Node) {
		checked++
		expr, err := xpath.Compile(xp)
		if err != nil {
			t.Errorf("%s: %v", xp, err)
			return
		}
		want := htmlquery.QuerySelectorAll(doc, expr)
		if _, ok := parseNativeXPath(xp); ok {
			native++
		}
		set := func(ns []*html.Node) []*html.Node {
			ns = slices.Clone(ns)
			slices.SortFunc(ns, func(a, b *html.Node) int { return strings.Compare(fmt.Sprintf("%p", a), fmt.Sprintf("%p", b)) })
			return ns
		}
		if !slices.Equal(set(got), set(want)) { // xpathSelects compares sets
			t.Errorf("%s: %d elements selected, the engine selects %d", xp, len(got), len(want))
		}
	}
	return func() (int, int) {
		xpathAudit = nil
		return checked, native
	}
}

// TestParseNativeXPath checks which XPaths the native evaluator takes.
func TestParseNativeXPath(t *testing.T) {
	for xp, want := range map[string]bool{
		"//div[contains(concat(' ',normalize-space(@class),' '),' post ')]/ul/li":                                             true,
		"/html/body/div[starts-with(normalize-space(@id),'item-') and contains(concat(' ',normalize-space(@class)),' row-')]": true,
		"//table/tbody/tr[td]": true,
		"//li" + toggleTest:    false,
		"//li[@class='x']":     false,
		"li":                   false,
		"//div//li":            false,
		"//li[contains(concat(' ',normalize-space(@class),' '),concat('a', \"'\"))]": false,
	} {
		if _, ok := parseNativeXPath(xp); ok != want {
			t.Errorf("parseNativeXPath(%q): %v, want %v", xp, ok, want)
		}
	}
}

// TestCompactTree checks that the compact copy of a parsed tree renders as the tree
// it copies and that its links agree, on a page of several node, attribute and
// string blocks with strings too long to be copied.
func TestCompactTree(t *testing.T) {
	long := strings.Repeat("ü", longString)
	src := `<!DOCTYPE html><html lang=en><head><title>T</title><style>p{}</style></head>
<body class="a b"><!-- c --><table id=t><tr><td>1<td>2</table><svg viewBox="0 0 1 1"><foreignObject><p>x</p></foreignObject></svg>
<math><mi xlink:href="u">y</mi></math><ul>` + strings.Repeat(`<li data-k=v class=item><a href=/x>z &amp; `+strings.Repeat("w", 60)+`</a> w</li>`, 600) +
		`</ul><p title="` + long + `">` + long + `</p><p>` + "\u00a0\u3000 " + `<img src=i.png>` + " \u00a0x" + `</p></body></html>`
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := html.Render(&want, doc); err != nil {
		t.Fatal(err)
	}
	wantElems, wantLeaves, attrs := 0, 0, 0
	var count func(n *html.Node)
	count = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			wantElems++
			if n.Data == "img" {
				wantLeaves++
			}
		case html.TextNode:
			if strings.TrimSpace(n.Data) != "" {
				wantLeaves++
			}
		}
		attrs += len(n.Attr)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			count(c)
		}
	}
	count(doc)
	if wantElems+wantLeaves < 3*nodeBlock || attrs < 2*attrBlock {
		t.Fatalf("%d nodes, %d attributes: too few for several blocks", wantElems+wantLeaves, attrs)
	}
	cp, elems, leaves := compactTree(doc, len(src))
	var got strings.Builder
	if err := html.Render(&got, cp); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("the copy renders as\n%s\nwant\n%s", got.String(), want.String())
	}
	if elems != wantElems || leaves != wantLeaves {
		t.Errorf("%d elements, %d leaves, want %d, %d", elems, leaves, wantElems, wantLeaves)
	}
	if e, l := countTree(doc); e != wantElems || l != wantLeaves {
		t.Errorf("countTree: %d elements, %d leaves, want %d, %d", e, l, wantElems, wantLeaves)
	}
	var check func(n *html.Node)
	check = func(n *html.Node) {
		var prev *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Parent != n || c.PrevSibling != prev {
				t.Fatalf("<%s> has wrong links", c.Data)
			}
			prev = c
			check(c)
		}
		if n.LastChild != prev {
			t.Fatalf("<%s> has the wrong last child", n.Data)
		}
	}
	check(cp)
	if cp.Parent != nil || cp == doc {
		t.Fatal("the copy is not a new root")
	}
}

// TestModelBytes checks the page store's estimate of a kept page's memory
// (modelBytes, the measure of ParsedCacheBytes) against the heap the kept pages of
// the NEXT-EVAL sample hold: within 30 % below (0.86 measured) or 10 % above in all.
func TestModelBytes(t *testing.T) {
	var pages []Page
	for _, p := range loadNextEvalSet(t, "next-eval-sample") {
		pages = append(pages, Page{Name: fmt.Sprint(p.N), HTML: p.HTML})
	}
	opts := nextEvalOptions()
	st := newPageStore(pages, &opts)
	kept := make([]*sample, len(pages))
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	est := 0
	for i, pg := range pages {
		s, err := st.get(i)
		if err != nil {
			t.Fatal(err)
		}
		kept[i] = s
		est += modelBytes(len(pg.HTML), s)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	held := float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
	r := float64(est) / held
	t.Logf("%d pages: estimated %.1f MB, heap %.1f MB (%.2f)", len(pages), float64(est)/1e6, held/1e6, r)
	if r < 0.7 || r > 1.1 {
		t.Errorf("modelBytes estimates %.1f MB for pages that hold %.1f MB of heap (ratio %.2f, want 0.7-1.1)", float64(est)/1e6, held/1e6, r)
	}
	runtime.KeepAlive(kept)
	runtime.KeepAlive(st)
}

// TestMayContainFold checks the one-pass mayContainFold against its definition: true
// on any byte past ASCII, else whether some case variant of w occurs (each byte folded
// with |0x20).
func TestMayContainFold(t *testing.T) {
	ref := func(s, w string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return true
			}
		}
		for i := 0; i+len(w) <= len(s); i++ {
			if k := 0; func() bool {
				for k < len(w) && s[i+k]|0x20 == w[k] {
					k++
				}
				return k == len(w)
			}() {
				return true
			}
		}
		return false
	}
	alphabet := []string{"s", "S", "k", "e", "l", "t", "o", "n", "K", "E", " ", "-", "é", "\x80"}
	r := uint32(7)
	for n := range 20000 {
		var b strings.Builder
		for range n % 23 {
			r = r*1664525 + 1013904223
			b.WriteString(alphabet[int(r>>16)%len(alphabet)])
		}
		s := b.String()
		if n%5 == 0 {
			s += "SkeLeton"[:n%9]
		}
		if got, want := mayContainFold(s, "skeleton"), ref(s, "skeleton"); got != want {
			t.Fatalf("mayContainFold(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"", "skeleton", "card SKELETON-x", "skeleto", "xskeletonx", "é"} {
		if got, want := mayContainFold(s, "skeleton"), ref(s, "skeleton"); got != want {
			t.Errorf("mayContainFold(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestPagerTextShortcut checks pagerText, which decides long ASCII texts with a letter
// without normalising them, against its definition on the text leaves of the NEXT-EVAL
// sample pages and on edge cases.
func TestPagerTextShortcut(t *testing.T) {
	ref := pagerTextNormalised
	texts := []string{"", " ", "Next", " next   page ", "Previous Page", "PREVIOUS  PAGE\t", "previous pages",
		"12", " 3 ", "« ‹ … › »", "→", "older posts", "Older\nPosts", "a very long title of a record", "\u212Aelvin", "1234567890123456"}
	for _, p := range loadNextEvalSet(t, "next-eval-sample") {
		pg, err := parseKeptPage(fmt.Sprint(p.N), p.HTML, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range pg.leaves {
			texts = append(texts, l.text)
		}
	}
	for _, s := range texts {
		if got, want := pagerText(s), ref(s); got != want {
			t.Errorf("pagerText(%q) = %v, want %v", s, got, want)
		}
	}
}
