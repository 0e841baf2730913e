package records

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// sameTree returns the first difference between the trees below x and y (node type,
// tag, data, namespace, attributes, children, parent links), or "".
func sameTree(x, y *html.Node, path string) string {
	if x.Type != y.Type || x.DataAtom != y.DataAtom || x.Data != y.Data || x.Namespace != y.Namespace {
		return fmt.Sprintf("%s: node %d %q %q, html.Parse %d %q %q", path, x.Type, x.Data, x.Namespace, y.Type, y.Data, y.Namespace)
	}
	if len(x.Attr) != len(y.Attr) {
		return fmt.Sprintf("%s: %d attributes, html.Parse %d (%v / %v)", path, len(x.Attr), len(y.Attr), x.Attr, y.Attr)
	}
	for i := range x.Attr {
		if x.Attr[i] != y.Attr[i] {
			return fmt.Sprintf("%s: attribute %d %v, html.Parse %v", path, i, x.Attr[i], y.Attr[i])
		}
	}
	xc, yc := x.FirstChild, y.FirstChild
	var xp *html.Node
	for k := 0; xc != nil || yc != nil; k++ {
		p := fmt.Sprintf("%s/%d:%s", path, k, strings.TrimSpace(firstN(xOr(xc, yc).Data, 20)))
		if xc == nil || yc == nil {
			return p + ": missing child (" + fmt.Sprint(xc == nil, yc == nil) + ")"
		}
		if xc.Parent != x || xc.PrevSibling != xp {
			return p + ": broken links"
		}
		if d := sameTree(xc, yc, p); d != "" {
			return d
		}
		xp = xc
		xc, yc = xc.NextSibling, yc.NextSibling
	}
	if x.LastChild != xp {
		return path + ": broken last child"
	}
	return ""
}

func xOr(x, y *html.Node) *html.Node {
	if x != nil {
		return x
	}
	return y
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// checkTreeBuilder compares buildTree with html.Parse on raw: the same tree, or
// buildTree gives up. It reports whether buildTree built the tree.
func checkTreeBuilder(t *testing.T, name string, raw []byte) bool {
	t.Helper()
	want, err := html.Parse(bytes.NewReader(raw))
	doc, elems, leaves, why := buildTreeWhy(raw)
	if why != "" {
		t.Logf("%s: left to html.Parse at %s", name, why)
		return false
	}
	if err != nil {
		t.Errorf("%s: built a tree, html.Parse failed: %v", name, err)
		return true
	}
	if d := sameTree(doc, want, ""); d != "" {
		t.Errorf("%s: %s", name, d)
	}
	we, wl := countTree(want)
	if elems != we || leaves != wl {
		t.Errorf("%s: %d elements and %d leaves, html.Parse %d and %d", name, elems, leaves, we, wl)
	}
	return true
}

// TestTreeBuilderSameTree checks FOREST's tree builder node by node against
// html.Parse on the 123 NEXT-EVAL pages, the record pages and the synthetic pages of
// the tests, and counts the pages it leaves to html.Parse.
func TestTreeBuilderSameTree(t *testing.T) {
	type pg struct {
		name string
		raw  []byte
	}
	var pages []pg
	for _, set := range []string{"next-eval-sample", "next-eval-train"} {
		for _, p := range loadNextEvalSet(t, set) {
			pages = append(pages, pg{set + "/" + p.Name(), p.HTML})
		}
	}
	files, _ := filepath.Glob(filepath.Join(testutil.SharedData(t, "record-pages"), "*", "*.html"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, pg{f, raw})
	}
	for _, p := range templatePages(3, 20<<10) {
		pages = append(pages, pg{"template/" + p.Name, p.HTML})
	}
	h, _ := resultPage("middlemarch", true)
	pages = append(pages, pg{"result", []byte(h)})
	built, fast := 0, 0
	for _, p := range pages {
		if checkTreeBuilder(t, p.name, p.raw) {
			built++
		}
		z := newFastTokenizer(p.raw)
		if _, _, _, why := build(z, z, len(p.raw)); why == "" {
			fast++
		} else if z.Failed() {
			t.Logf("%s: the fast tokenizer gave up at %d: %.60q", p.name, z.pos, p.raw[z.pos:])
		}
	}
	t.Logf("the fast tokenizer read %d of %d pages", fast, len(pages))
	if fast < len(pages)*2/3 {
		t.Errorf("the fast tokenizer read %d of %d pages (131 of 139 when it was written)", fast, len(pages))
	}
	t.Logf("built %d of %d pages, %d left to html.Parse", built, len(pages), len(pages)-built)
	if built < len(pages)*9/10 {
		t.Errorf("built %d of %d pages: the builder gives up on more than a tenth (138 of 139 when it was written)", built, len(pages))
	}
}

// FuzzTreeBuilder compares the builder with html.Parse on any markup: the same tree,
// or the page left to html.Parse, and never a panic (buildTreeWhy reports one):
//
//	go test ./records -run '^$' -fuzz FuzzTreeBuilder -fuzztime 60s
func FuzzTreeBuilder(f *testing.F) {
	for _, s := range treeBuilderMarkup {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // parseKeptPage never gives the builder a NUL
		}
		_, _, _, why := buildTreeWhy([]byte(s))
		if strings.HasPrefix(why, "panic") {
			t.Fatalf("%q: %s", s, why)
		}
		checkTreeBuilder(t, fmt.Sprintf("%q", s), []byte(s))
	})
}

// TestTreeBuilderMergedText checks that text split by many ignored tags is merged
// into one node in linear time (200,000 pieces).
func TestTreeBuilderMergedText(t *testing.T) {
	raw := []byte("<p>" + strings.Repeat("ab</x>", 200000))
	doc, _, _, why := buildTreeWhy(raw)
	if why != "" {
		t.Fatalf("left to html.Parse: %s", why)
	}
	want, _ := html.Parse(bytes.NewReader(raw))
	if d := sameTree(doc, want, ""); d != "" {
		t.Error(d)
	}
}

// TestTreeBuilderMarkup checks the builder on markup that exercises the tree
// construction's repairs: the same tree as html.Parse, or html.Parse does it.
func TestTreeBuilderMarkup(t *testing.T) {
	for _, s := range treeBuilderMarkup {
		checkTreeBuilder(t, fmt.Sprintf("%q", s), []byte(s))
	}
}

var treeBuilderMarkup = []string{
	``, `text`, `<!DOCTYPE html>`, `<!doctype html><p>x<table><tr><td>a</table>`,
	`<p>x<table><tr><td>a</table>`, `<!-- c --><html><!-- d --><head><title>t</title></head><!-- e --><body>x</body></html><!-- f -->`,
	`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x<table>`,
	`<ul><li>a<li>b</ul><dl><dt>x<dd>y<dt>z</dl>`, `<p>a<div>b</div>c</p>`, `</p>`, `<br></br>`,
	`<b>x<i>y</b>z</i>`, `<a href=1>x<a href=2>y</a>`, `<b><p>x</b>y</p>`, `<b>1<b>2<b>3<b>4</b></b></b></b>x`,
	`<b class=x id=y>1</b><b id=y class=x>2`, `<table><td>x</td></table>`, `<table>x<tr><td>y</table>`,
	`<table><tr><td><b>x</td><td>y</table>z`, `<table><form><tr><td>x</td></tr></form></table>`,
	`<table><input type=hidden><tr><td></table>`, `<table><caption>c</caption></table>`,
	`<select><option>a<option>b<optgroup><option>c</select>`, `<svg viewbox="0 0 1 1"><path d="M0"/><lineargradient/><title>t</title></svg>x`,
	`<svg><foreignObject><p>x</p></foreignObject></svg>`, `<svg><p>x</svg>`, `<math><mi>x</mi></math>`,
	`<pre>\nx</pre><textarea>\ny</textarea><listing>\n\nz</listing>`, `<script>a<b</script><style>p{}</style>`,
	`<head><script>x</script></head>  <script>y</script><body>`, `<html lang=en><body class=a><body id=b><html id=c>`,
	`<form><form><input></form></form>`, `<h1>a<h2>b</h1>`, `<image src=x>`, `<p>a</body> <!-- x --> b</html> c`,
	`<template><p>x</template>`, `<head><template><meta></template></head><body><template id=a><div><b>x</template>y</b>`,
	`<table><template><tr><td>x</td></tr></template><tr><td>y</table>`, `<template><td>x</td></template><template><col></template>`,
	`<template><form><input></form></template><form><template></template></form>`, `<div><template><p>x`,
	`<html><head></head><template>x</template><body>`, `<table><colgroup><template><col></template></colgroup></table>`, `<frameset></frameset>`, `<nobr>a<nobr>b`, `<object><b>x</object>y`,
	`<ruby>a<rt>b<rp>c</ruby>`, `<button><button>x`, `<hr><p>x<hr>`, `<div><li>a<div><li>b</div></div>`,
	"a\x00b<table>\x00</table>", `<iframe><b>x</b></iframe><noscript><p>y</p></noscript><xmp><i>z</i></xmp>`,
	`<custom-tag data-x=1><other-tag></custom-tag>`, `<table><tbody><tr><th>a<td>b<tr><td>c</tbody><tfoot><tr><td>d</table>`,
	`<a><div>x</a>y</div>`, `<p><b><i>x</p>y`, `<table><tr><td><table><tr><td>x</table></td></tr></table>`,
	`<table><caption><b>c</caption><col><colgroup><col></colgroup><tr><td>x</table>`,
	`<table><colgroup> <col> x</table>`, `<table><caption>c<td>x</table>`, `<table><caption>c</table>y`,
	`<a href="x"title=y>z</a><a b=c/>d<a href=/x/>e</a><A HREF="X" Class='Y'>f</A><a b c=d e>g</a>`,
	`<a b="1" B="2" b=3>h</a><a b='&amp;' c="&copy=" d=&lt>i</a><a  =x>j</a><br/><br /><img src=x/ ><p a=/>k`,
	"</br x><div a=b\"c>l</div><p\tclass=x\n>m<a b= \"c\">n</a><a b =c>o</a><a \u00fc=1>p</a><x-y:z a.b-c_d=1>q</x-y:z>",
	"<a b=\"x\r\ny\">r</a><a b=\"x\x00y\">s</a><a @click=\"f()\" :x=\"y\" [z]=w (e)=v #r *ngIf=\"c\">t</a><a b=''c=d>u</a><a b=\"\"/>",
	`<a x="&quot;a&quot;:&amp;&lt;&gt;&#39;&#34;&apos;" y='&amp' z="&ampx;" w="&amp;&copy;" v=&quot;q&quot;>x</a>`,
	`<a x="a&nbsp;b&#160;c&#xA0;d&#X41;&#0;&#128;&#x110000;&#55296;&amp;" y="&#12" z="&#x;" w="&#1234567;">x</a>`,
	`<svg><desc>d</desc><g><rect/></g></svg><svg/>`, `<svg><![CDATA[x]]></svg>`, `<p><svg><circle></p>`,
}
