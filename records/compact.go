package records

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Largest block sizes of compactTree: about 28, 24 and 16 KB, so that the unused end
// of the last blocks of a page is small next to the page.
const (
	nodeBlock  = 256
	attrBlock  = 512
	byteBlock  = 16 << 10
	longString = 1 << 10 // longer strings are not copied
)

// compactTree returns a copy of the tree below doc whose nodes, attributes and
// strings sit in blocks, in document order, with the number of its elements and a
// bound of its leaves (text nodes that are not blank, and images). The copy has the same structure and content. The parser allocates every
// node, every attribute list and every text and attribute value on its own: about a
// million small objects for the 41 NEXT-EVAL sample pages, scattered over the heap,
// which the garbage collector marks one by one on every cycle for as long as the page
// is kept (Extract keeps every page until its records are written), and which every
// later pass over the page reads from as many places in memory. The copy is a few
// objects per 256 nodes, read in order; the parser's tree becomes garbage at once. A
// block never moves once allocated, so the pointers into it stay valid, and its bytes
// never change once written.
//
// size is the length of the raw page: the blocks of a small page are smaller (about
// one node and one attribute per 50 bytes of markup on the NEXT-EVAL pages).
func compactTree(doc *html.Node, size int) (root *html.Node, elems, leaves int) {
	m := newArena(size)
	var copyNode func(n, parent *html.Node) *html.Node
	copyNode = func(n, parent *html.Node) *html.Node {
		countNode(n, &elems, &leaves)
		data := n.Data
		switch {
		case n.Type == html.ElementNode && n.DataAtom != 0:
			// a known tag's name is a constant already
		case n.Type == html.TextNode && parent != nil && (parent.DataAtom == atom.Script || parent.DataAtom == atom.Style):
			// the code of a script or a style sheet, never read but often long:
			// one object per element, not worth the copy
		default:
			data = m.str(data)
		}
		c := m.node(n.Type, n.DataAtom, data, n.Namespace)
		c.Parent = parent
		if len(n.Attr) > 0 {
			c.Attr = m.attrs(n.Attr)
			for i := range c.Attr {
				c.Attr[i].Val = m.str(c.Attr[i].Val)
			}
		}
		var prev *html.Node
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			kc := copyNode(k, c)
			if prev == nil {
				c.FirstChild = kc
			} else {
				prev.NextSibling, kc.PrevSibling = kc, prev
			}
			prev = kc
		}
		c.LastChild = prev
		return c
	}
	root = copyNode(doc, nil)
	return root, elems, leaves
}

// countTree returns the number of elements below doc and a bound of its leaves (text
// nodes that are not blank, and images).
func countTree(doc *html.Node) (elems, leaves int) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		countNode(n, &elems, &leaves)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return elems, leaves
}

// countNode counts n in the counts of countTree.
func countNode(n *html.Node, elems, leaves *int) {
	switch n.Type {
	case html.ElementNode:
		*elems++
		if n.DataAtom == atom.Img {
			*leaves++
		}
	case html.TextNode:
		if !blank(n.Data) {
			*leaves++
		}
	}
}

// blank reports text made of white space only (strings.TrimSpace(s) == "").
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return strings.TrimSpace(s[i:]) == ""
		case !asciiSpace(c):
			return false
		}
	}
	return true
}
