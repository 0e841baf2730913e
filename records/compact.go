package records

import (
	"golang.org/x/net/html"
)

// compactTree returns a copy of the tree below doc whose nodes and attributes sit in
// a few large arrays, with the numbers of its element and text nodes. The copy has
// the same structure and content (the strings are shared). The parser allocates
// every node and every attribute list on its own: hundreds of thousands of small
// objects per page, which the garbage collector marks one by one on every cycle for
// as long as the page is kept (Extract keeps every page until its records are
// written); the copy is a few dozen objects, and the parser's tree becomes garbage at
// once.
//
// nodes and attrs are the expected numbers of nodes and attributes, the sizes of the
// first blocks; when they run out, the next blocks are a quarter of that size (a
// block never moves once allocated, so the pointers into it stay valid).
func compactTree(doc *html.Node, nodes, attrs int) (root *html.Node, elems, texts int) {
	nodes, attrs = max(nodes, 64), max(attrs, 64)
	ns := make([]html.Node, 0, nodes)
	as := make([]html.Attribute, 0, attrs)
	nodes, attrs = nodes/4, attrs/4
	var copyNode func(n, parent *html.Node) *html.Node
	copyNode = func(n, parent *html.Node) *html.Node {
		switch n.Type {
		case html.ElementNode:
			elems++
		case html.TextNode:
			texts++
		}
		if len(ns) == cap(ns) {
			ns = make([]html.Node, 0, nodes)
		}
		ns = append(ns, html.Node{Parent: parent, Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace})
		c := &ns[len(ns)-1]
		if k := len(n.Attr); k > 0 {
			if cap(as)-len(as) < k {
				as = make([]html.Attribute, 0, max(attrs, k))
			}
			as = append(as, n.Attr...)
			c.Attr = as[len(as)-k : len(as) : len(as)]
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
	return root, elems, texts
}
