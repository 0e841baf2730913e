package records

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The page model. A page is parsed once with the HTML5 parser of golang.org/x/net/html
// (the same tree Chromium builds: implied <tbody>, re-nested tags), then indexed into a
// flat element table that FOREST and the segmenter share:
//
//   - elements are numbered in pre-order (the thesis's dfs attribute, body = 1); elements
//     outside <body> keep dfs 0 and never take part in the ranking;
//   - the text of the page is one sequence of word tokens in document order, and every
//     element covers a contiguous range of it, so the x and y counts of an element
//     (signifiers and other terms in its text, thesis eqs. 2.2–2.3) are two subtractions
//     of prefix sums;
//   - leaves are the non-empty text nodes (thesis: "all non-empty textual nodes at the
//     bottom of the DOM tree"), plus images, which carry a URL and alternative text.
//
// Elements whose text is never content are skipped with their subtree: script, style,
// noscript, template (the thesis's cleaning), form controls whose text is an option list
// or a value (select, option, textarea), inline SVG, and, on request, elements hidden in
// the markup itself (the hidden attribute, aria-hidden="true", an inline display:none or
// visibility:hidden). Hidden content is kept by default: a DOM snapshot often holds a
// modal's aria-hidden page or records a script has not revealed yet (NEXT-EVAL counts
// them as records). The tree itself is not modified, so absolute XPaths computed on it
// address the page as it was given.

// elem is one element of a page.
type elem struct {
	n      *html.Node
	parent int32 // index of the parent element, -1 for the root
	// kidStart, kidEnd delimit the element's children in page.kidTab.
	kidStart, kidEnd int32
	depth            int // body = 1, html = 0; the thesis's level
	dfs              int // pre-order number, body = 1; 0 outside body
	tag              string
	// tagHash is strHash(tag), the step of the tag paths of shapes.
	tagHash uint64
	// tokStart, tokEnd delimit the element's tokens in page.toks.
	tokStart, tokEnd int32
	// leafStart, leafEnd delimit the element's leaves in page.leaves.
	leafStart, leafEnd int32
	skipped            bool // content never counted (script, hidden, …)
	// end is one past the last element of the subtree: d is a descendant of i when
	// i < d < elems[i].end (elements are numbered in pre-order).
	end int32
}

// leaf is one content leaf: a text node, or an image. It holds no node pointer: the
// collector marks the kept pages' tables on every cycle, and an image's node is its
// element's (elem).
type leaf struct {
	elem int32 // enclosing element; for an image, the img element itself
	img  bool  // an image (an img element), not a text node
	text string
	// toks is the range of the leaf's tokens in page.toks.
	tokStart, tokEnd int32
}

// page is a parsed, indexed page.
type page struct {
	name   string
	doc    *html.Node
	elems  []elem
	byNode map[*html.Node]int32
	body   int32 // index of <body>, -1 if none
	// kidTab holds the children of every element (kids), in order, element after
	// element: offsets rather than a slice per element, which the collector would mark
	// on every cycle while the page is kept.
	kidTab []int32
	toks   []string
	leaves []leaf
	// sig is the prefix sum of signifier flags over toks (len(toks)+1), set by
	// markSignifiers.
	sig []int32
	// df holds the document frequencies of the terms over the docs pages of the corpus
	// the page was taken from (nil when none was given), for specificity.
	df   map[string]int
	docs int
	// noise flags the tokens of navigation lists, left out of tf-idf (record mode).
	noise []bool
	// spec is the specificity of every token (tokenSpecificity), for p.df and
	// specDocs pages; nil until asked for, reset when p.df is set.
	spec     []float64
	specDocs int
	// forms are the tolerant type attributes of every element (typeIndex), set with
	// the page's sample; formClass and formID say whether they include the class and
	// the id, whose forms tolerantAttr then reads from them instead of computing them
	// again.
	forms             typeAttrTable
	formClass, formID bool
}

// skipTag reports the elements whose subtree holds no content (a switch: it is asked
// of every element).
func skipTag(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Select, atom.Option,
		atom.Optgroup, atom.Textarea, atom.Svg, atom.Math, atom.Iframe, atom.Object,
		atom.Head, atom.Datalist:
		return true
	}
	return false
}

// parsePage parses raw HTML. The HTML5 parser repairs any markup, so the only errors are
// input that is not text at all.
func parsePage(name string, raw []byte, skipHidden bool) (*page, error) {
	doc, err := parseHTML(name, raw)
	if err != nil {
		return nil, err
	}
	nelems, nleaves := countTree(doc)
	return indexPage(name, doc, skipHidden, nelems, nleaves), nil
}

// parseKeptPage is parsePage for a page kept while other pages are parsed and
// processed (Extract's): the tree is a compact copy of the parser's (compactTree),
// which costs a copy and saves the garbage collector from marking the parser's many
// objects on every cycle.
func parseKeptPage(name string, raw []byte, skipHidden bool) (*page, error) {
	if bytes.IndexByte(raw, 0) < 0 {
		if doc, nelems, nleaves, ok := buildTree(raw); ok {
			return indexPage(name, doc, skipHidden, nelems, nleaves), nil
		}
	}
	doc, err := parseHTML(name, raw)
	if err != nil {
		return nil, err
	}
	doc, nelems, nleaves := compactTree(doc, len(raw))
	return indexPage(name, doc, skipHidden, nelems, nleaves), nil
}

// parseHTML parses raw with the HTML5 parser.
func parseHTML(name string, raw []byte) (*html.Node, error) {
	if bytes.IndexByte(raw, 0) >= 0 && !looksLikeText(raw) {
		return nil, fmt.Errorf("%s: %w: input contains NUL bytes (not an HTML document)", name, ErrBadPage)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrBadPage, err)
	}
	return doc, nil
}

// looksLikeText tolerates a few stray NUL bytes in otherwise textual input.
func looksLikeText(raw []byte) bool {
	return bytes.Count(raw, []byte{0}) < len(raw)/100+1
}

// indexPage indexes the tree doc (see page), given its number of elements and a bound
// of its leaves, so that the tables are allocated once.
func indexPage(name string, doc *html.Node, skipHidden bool, nelems, nleaves int) *page {
	p := &page{name: name, doc: doc, body: -1,
		elems: make([]elem, 0, nelems), leaves: make([]leaf, 0, nleaves), toks: make([]string, 0, 3*nleaves)}
	nkids := make([]int32, 0, nelems)
	dfs := 0
	var walk func(n *html.Node, parent int32, depth int, skipped bool)
	walk = func(n *html.Node, parent int32, depth int, skipped bool) {
		switch n.Type {
		case html.TextNode:
			if skipped || parent < 0 {
				return
			}
			if strings.TrimSpace(n.Data) == "" {
				return // white space between elements
			}
			toks := textnorm.Tokens(n.Data)
			start := int32(len(p.toks))
			p.toks = append(p.toks, toks...)
			p.leaves = append(p.leaves, leaf{elem: parent, text: collapse(n.Data),
				tokStart: start, tokEnd: int32(len(p.toks))})
			return
		case html.ElementNode:
		case html.DocumentNode:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, parent, depth, skipped)
			}
			return
		default:
			return
		}
		idx := int32(len(p.elems))
		e := elem{n: n, parent: parent, depth: depth, tag: n.Data, tagHash: strHash(n.Data)}
		if n.DataAtom == atom.Body && p.body < 0 {
			p.body = idx
			e.depth = 1
			depth = 1
		}
		if p.body >= 0 && (idx == p.body || depth > 1) {
			dfs++
			e.dfs = dfs
		}
		e.skipped = skipped || skipTag(n.DataAtom) || (skipHidden && hiddenInMarkup(n)) || placeholder(n)
		e.tokStart = int32(len(p.toks))
		e.leafStart = int32(len(p.leaves))
		p.elems = append(p.elems, e)
		nkids = append(nkids, 0)
		if parent >= 0 {
			nkids[parent]++
		}
		if n.DataAtom == atom.Img && !e.skipped {
			p.leaves = append(p.leaves, leaf{elem: idx, img: true,
				tokStart: int32(len(p.toks)), tokEnd: int32(len(p.toks))})
		}
		childDepth := depth + 1
		if p.body < 0 {
			childDepth = 0 // html, head: outside the body levels
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, idx, childDepth, p.elems[idx].skipped)
		}
		p.elems[idx].tokEnd = int32(len(p.toks))
		p.elems[idx].end = int32(len(p.elems))
		p.elems[idx].leafEnd = int32(len(p.leaves))
	}
	walk(doc, -1, 0, false)
	packInPlace(len(p.toks), func(i int) *string { return &p.toks[i] })
	if cap(p.toks) > len(p.toks)+len(p.toks)/8 {
		p.toks = slices.Clone(p.toks) // the estimate was high: kept as long as the page
	}
	// the children of every element, in one shared table
	off := int32(0)
	for i := range p.elems {
		p.elems[i].kidStart, p.elems[i].kidEnd = off, off
		off += nkids[i]
	}
	p.kidTab = nkids // the counts are read: the table takes their place
	for i := range p.elems {
		if par := p.elems[i].parent; par >= 0 {
			e := &p.elems[par]
			p.kidTab[e.kidEnd] = int32(i)
			e.kidEnd++
		}
	}
	return p
}

// packInPlace copies the n strings at(0) … at(n-1) into one new backing array and
// points them at their copies. The strings of a page's tables (its tokens, the
// tolerant forms of its attributes) are kept as long as the page, and many of them
// are strings of their own (lower-cased words, forms without their digits): about
// 42,000 small objects on the 41 NEXT-EVAL sample pages, which the garbage collector
// marks one by one on every cycle while the page is kept. Packed, they are one
// object per table.
func packInPlace(n int, at func(i int) *string) {
	total := 0
	for i := range n {
		total += len(*at(i))
	}
	if total == 0 {
		return
	}
	buf := make([]byte, 0, total)
	for i := range n {
		buf = append(buf, *at(i)...)
	}
	all := unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is never written again
	off := 0
	for i := range n {
		s := at(i)
		*s = all[off : off+len(*s)]
		off += len(*s)
	}
}

// hiddenInMarkup reports elements hidden by their own attributes.
func hiddenInMarkup(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			s := strings.ToLower(strings.ReplaceAll(a.Val, " ", ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		}
	}
	return false
}

// placeholder reports a loading placeholder ("skeleton"): an element with a class
// token that names a skeleton (react-loading-skeleton, MuiSkeleton-text, skeleton-line,
// …) and nothing below it but text and line breaks. Such an element stands in for text
// the page has not loaded; what it holds (a zero-width non-joiner, or sample text) is
// not content, and a list item made only of placeholders is not a record yet. The
// element must be a text leaf so that a layout wrapper named after the page's skeleton
// keeps its content.
func placeholder(n *html.Node) bool {
	cls := attr(n, "class")
	if cls == "" || !mayContainFold(cls, "skeleton") {
		return false
	}
	if !strings.Contains(strings.ToLower(cls), "skeleton") {
		return false
	}
	skeleton := false
	for _, tok := range strings.Fields(strings.ToLower(cls)) {
		if strings.Contains(tok, "skeleton") {
			skeleton = true
			break
		}
	}
	if !skeleton {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom != atom.Br {
			return false
		}
	}
	return true
}

// mayContainFold reports whether s may contain the lower-case ASCII word w in any
// case: false only when s is ASCII and holds no case variant of w (the common case,
// decided without lower-casing a copy of s); text with other characters says true
// (Unicode case mapping takes some of them to ASCII letters).
func mayContainFold(s, w string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return true
		}
		if c|0x20 != w[0] || i+len(w) > len(s) {
			continue
		}
		k := 1
		for k < len(w) && s[i+k]|0x20 == w[k] {
			k++
		}
		if k == len(w) {
			return true
		}
	}
	return false
}

// collapse trims s and collapses runs of white space (including U+00A0) to one space.
func collapse(s string) string {
	if plainSpaced(s) {
		return s
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// plainSpaced reports whether s is already collapsed: ASCII spaces only, single, and
// none at either end (most text leaves).
func plainSpaced(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' && prev == ' ', c == '\t', c == '\n', c == '\r', c == '\f', c == '\v', c >= 0x80:
			return false
		}
		prev = c
	}
	return true
}

// attr returns the value of attribute key of n, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// absXPath returns the index-qualified absolute XPath of n, e.g.
// /html[1]/body[1]/div[2]/ul[1]/li[3]. Indices count element siblings with the same tag
// name, 1-based, as in XPath.
func absXPath(n *html.Node) string {
	// the steps from n up, written root first into one buffer
	type step struct {
		tag string
		k   int
	}
	var stack [32]step
	steps, size := stack[:0], 0
	for c := n; c != nil && c.Type == html.ElementNode; c = c.Parent {
		k := 1
		for s := c.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == c.Data {
				k++
			}
		}
		steps = append(steps, step{c.Data, k})
		size += len(c.Data) + 5
	}
	var b strings.Builder
	b.Grow(size)
	var num [20]byte
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i].tag)
		b.WriteByte('[')
		b.Write(strconv.AppendInt(num[:0], int64(steps[i].k), 10))
		b.WriteByte(']')
	}
	return b.String()
}

// elemOf returns the index of element node n in p, building the node index on first
// use (record extraction never needs it).
func (p *page) elemOf(n *html.Node) (int32, bool) {
	if p.byNode == nil {
		p.byNode = make(map[*html.Node]int32, len(p.elems))
		for i := range p.elems {
			p.byNode[p.elems[i].n] = int32(i)
		}
	}
	i, ok := p.byNode[n]
	return i, ok
}

// kids returns the child elements of element i, in order; capped, so that an append
// to them copies.
func (p *page) kids(i int32) []int32 {
	e := &p.elems[i]
	return p.kidTab[e.kidStart:e.kidEnd:e.kidEnd]
}

// tolerantAttr returns tolerantForm(attr(n, key)) of the node n of element i, key
// being "class" or "id".
func (p *page) tolerantAttr(i int32, key string) string {
	if key == "class" && p.formClass || key == "id" && p.formID {
		for _, a := range p.forms.of(i) {
			if a[0] == key {
				return a[1]
			}
		}
		return ""
	}
	return tolerantForm(attr(p.elems[i].n, key))
}

// pathStep is the record-internal path step of element i: tag plus tolerant class,
// e.g. "span.first-line" (the Leaf.Path contract).
func (p *page) pathStep(i int32) string {
	tag := p.elems[i].tag
	if c := p.tolerantAttr(i, "class"); c != "" {
		return tag + "." + c
	}
	return tag
}

// ntoks is the number of tokens of element i.
func (p *page) ntoks(i int32) int { return int(p.elems[i].tokEnd - p.elems[i].tokStart) }

// nsig is the number of signifier tokens of element i.
func (p *page) nsig(i int32) int {
	if p.sig == nil {
		return 0
	}
	e := &p.elems[i]
	return int(p.sig[e.tokEnd] - p.sig[e.tokStart])
}

// bodyIndex returns the body element, or the root element for documents without one.
func (p *page) bodyIndex() int32 {
	if p.body >= 0 {
		return p.body
	}
	if len(p.elems) > 0 {
		return 0
	}
	return -1
}

// isAncestor reports whether a is a proper ancestor of d.
func (p *page) isAncestor(a, d int32) bool {
	return a < d && d < p.elems[a].end
}

// text returns the collapsed text of element i (its text leaves joined by spaces).
func (p *page) text(i int32) string {
	e := &p.elems[i]
	var parts []string
	for l := e.leafStart; l < e.leafEnd; l++ {
		if t := p.leaves[l].text; t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}
