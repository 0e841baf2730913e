package records

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Record segmentation (thesis ch. 3 §3.3): every record is written with its absolute
// XPath and its ordered leaves; each leaf carries its record-internal path, the key on
// which package schema aligns attributes across records and pages.

// segment turns the record elements of one page into Records. base resolves relative
// link and image URLs; it may be nil.
func segment(p *page, elems []int32, extra [][]int32, base *url.URL) []Record {
	out := make([]Record, 0, len(elems))
	for i, e := range elems {
		r := Record{Page: p.name, XPath: absXPath(p.elems[e].n)}
		r.Leaves = leavesOf(p, e, base)
		if i < len(extra) {
			for _, x := range extra[i] {
				r.Extra = append(r.Extra, absXPath(p.elems[x].n))
				r.Leaves = append(r.Leaves, leavesOf(p, x, base)...)
			}
		}
		out = append(out, r)
	}
	return out
}

// leavesOf returns the leaves of element root in document order, with paths relative
// to it.
func leavesOf(p *page, root int32, base *url.URL) []Leaf {
	el := &p.elems[root]
	paths := pathCache{p: p, root: root, path: map[int32]string{}}
	var out []Leaf
	for li := el.leafStart; li < el.leafEnd; li++ {
		l := &p.leaves[li]
		if l.n.Type == html.ElementNode { // an image
			src := resolve(base, attr(l.n, "src"))
			alt := collapse(attr(l.n, "alt"))
			if src == "" && alt == "" {
				continue
			}
			out = append(out, Leaf{Path: paths.of(l.elem), Src: src, Alt: alt, Href: linkOf(p, root, l.elem, base)})
			continue
		}
		if l.text == "" {
			continue
		}
		out = append(out, Leaf{Path: paths.of(l.elem), Text: l.text, Href: linkOf(p, root, l.elem, base)})
	}
	return out
}

// pathCache computes the record-internal paths of the elements below one record root:
// the path steps (tag and tolerant class) from the root down to an element, with a
// position only where the parent has several children with the same step, e.g.
// "tr/td[2]/a". Each element's path is its parent's and one step.
type pathCache struct {
	p    *page
	root int32
	path map[int32]string
}

// of returns the record-internal path of element e.
func (c *pathCache) of(e int32) string {
	if s, ok := c.path[e]; ok {
		return s
	}
	if e == c.root {
		s := pathStep(c.p.elems[e].n)
		c.path[e] = s
		return s
	}
	par := c.p.elems[e].parent
	prefix := c.of(par)
	// the positioned steps of all of par's children at once
	kids := c.p.elems[par].kids
	steps := make([]string, len(kids))
	count := map[string]int{}
	for i, k := range kids {
		steps[i] = pathStep(c.p.elems[k].n)
		count[steps[i]]++
	}
	seen := map[string]int{}
	for i, k := range kids {
		step := steps[i]
		seen[step]++
		if count[step] > 1 {
			step += "[" + strconv.Itoa(seen[step]) + "]"
		}
		c.path[k] = prefix + "/" + step
	}
	return c.path[e]
}

// linkOf returns the href of the nearest <a> enclosing element e within the record.
func linkOf(p *page, root, e int32, base *url.URL) string {
	for c := e; c >= 0; c = p.elems[c].parent {
		if p.elems[c].n.DataAtom == atom.A {
			if h := attr(p.elems[c].n, "href"); h != "" {
				return resolve(base, h)
			}
		}
		if c == root {
			break
		}
	}
	return ""
}

// resolve makes ref absolute against base; it returns ref unchanged when either does
// not parse or base is nil.
func resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || base == nil {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return base.ResolveReference(u).String()
}
