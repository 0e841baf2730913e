package records

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html/atom"
)

// Record segmentation (thesis ch. 3 §3.3): every record is written with its absolute
// XPath and its ordered leaves; each leaf carries its record-internal path, the key on
// which package schema aligns attributes across records and pages.

// segment turns the record elements of one page into Records. base resolves relative
// link and image URLs; it may be nil.
func segment(p *page, elems []int32, extra [][]int32, base *url.URL) []Record {
	out := make([]Record, 0, len(elems))
	paths := &pathCache{p: p} // one for every record root in turn: its tables are reused
	for i, e := range elems {
		r := Record{Page: p.name, XPath: absXPath(p.elems[e].n)}
		r.Leaves = leavesOf(p, e, base, paths)
		if i < len(extra) {
			for _, x := range extra[i] {
				r.Extra = append(r.Extra, absXPath(p.elems[x].n))
				r.Leaves = append(r.Leaves, leavesOf(p, x, base, paths)...)
			}
		}
		out = append(out, r)
	}
	return out
}

// leavesOf returns the leaves of element root in document order, with paths relative
// to it; paths is reset to root.
func leavesOf(p *page, root int32, base *url.URL, paths *pathCache) []Leaf {
	el := &p.elems[root]
	paths.reset(root)
	var out []Leaf
	if n := countLeaves(p, root); n > 0 {
		out = make([]Leaf, 0, n)
	}
	for li := el.leafStart; li < el.leafEnd; li++ {
		l := &p.leaves[li]
		if l.img {
			n := p.elems[l.elem].n
			src := resolve(base, attr(n, "src"))
			alt := collapse(attr(n, "alt"))
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
// "tr/td[2]/a". Each element's path is its parent's and one step. Both tables are
// indexed by the element's offset in the root's subtree (elements are numbered in
// pre-order); an empty entry is not computed yet (a path or step is never empty).
type pathCache struct {
	p    *page
	root int32
	path []string
	// steps holds the positioned steps of a parent's children, in their order
	steps [][]string
}

// reset empties the cache for the subtree of element root.
func (c *pathCache) reset(root int32) {
	n := int(c.p.elems[root].end - root)
	c.root = root
	c.path = slices.Grow(c.path[:0], n)[:n]
	clear(c.path)
	c.steps = slices.Grow(c.steps[:0], n)[:n]
	clear(c.steps)
}

// countLeaves returns the number of leaves of element root that leavesOf may return:
// text leaves and images.
func countLeaves(p *page, root int32) int {
	n := 0
	for li := p.elems[root].leafStart; li < p.elems[root].leafEnd; li++ {
		if l := &p.leaves[li]; l.img || l.text != "" {
			n++
		}
	}
	return n
}

// of returns the record-internal path of element e.
func (c *pathCache) of(e int32) string {
	if s := c.path[e-c.root]; s != "" {
		return s
	}
	if e == c.root {
		s := c.p.pathStep(e)
		c.path[0] = s
		return s
	}
	par := c.p.elems[e].parent
	prefix := c.of(par)
	kids := c.p.kids(par)
	steps := c.steps[par-c.root]
	if steps == nil {
		steps = positionedSteps(c.p, kids)
		c.steps[par-c.root] = steps
	}
	i, _ := slices.BinarySearch(kids, e)
	s := prefix + "/" + steps[i]
	c.path[e-c.root] = s
	return s
}

// positionedSteps returns the path steps of the elements kids (siblings, in order),
// each with its position among the siblings of the same step when there are several.
func positionedSteps(p *page, kids []int32) []string {
	steps := make([]string, len(kids))
	for i, k := range kids {
		steps[i] = p.pathStep(k)
	}
	if len(kids) <= 16 {
		// few siblings: compare them pairwise rather than count them in maps
		var out []string
		for i, st := range steps {
			pos, same := 0, 0
			for j, o := range steps {
				if o == st {
					same++
					if j <= i {
						pos = same
					}
				}
			}
			if same > 1 {
				if out == nil {
					out = slices.Clone(steps)
				}
				out[i] = st + "[" + strconv.Itoa(pos) + "]"
			}
		}
		if out != nil {
			return out
		}
		return steps
	}
	count := map[string]int{}
	for _, st := range steps {
		count[st]++
	}
	seen := map[string]int{}
	out := make([]string, len(steps))
	for i, st := range steps {
		seen[st]++
		if count[st] > 1 {
			st += "[" + strconv.Itoa(seen[st]) + "]"
		}
		out[i] = st
	}
	return out
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
