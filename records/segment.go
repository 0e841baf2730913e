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
		r.Leaves = leavesOf(p, e, e, base)
		if i < len(extra) {
			for _, x := range extra[i] {
				r.Extra = append(r.Extra, absXPath(p.elems[x].n))
				r.Leaves = append(r.Leaves, leavesOf(p, x, x, base)...)
			}
		}
		out = append(out, r)
	}
	return out
}

// leavesOf returns the leaves of element e in document order, with paths relative to
// the record root.
func leavesOf(p *page, root, e int32, base *url.URL) []Leaf {
	el := &p.elems[e]
	var out []Leaf
	for li := el.leafStart; li < el.leafEnd; li++ {
		l := &p.leaves[li]
		path := internalPath(p, root, l.elem)
		if l.n.Type == html.ElementNode { // an image
			src := resolve(base, attr(l.n, "src"))
			alt := collapse(attr(l.n, "alt"))
			if src == "" && alt == "" {
				continue
			}
			out = append(out, Leaf{Path: path, Src: src, Alt: alt, Href: linkOf(p, root, l.elem, base)})
			continue
		}
		if l.text == "" {
			continue
		}
		out = append(out, Leaf{Path: path, Text: l.text, Href: linkOf(p, root, l.elem, base)})
	}
	return out
}

// internalPath is the record-internal path of element e below record root: the path
// steps (tag and tolerant class) from the root down to e, with a position only where
// the parent has several children with the same step, e.g. "tr/td[2]/a".
func internalPath(p *page, root, e int32) string {
	var steps []string
	for c := e; c >= 0; c = p.elems[c].parent {
		n := p.elems[c].n
		step := pathStep(n)
		if c != root {
			if par := p.elems[c].parent; par >= 0 {
				k, total := 0, 0
				for _, s := range p.elems[par].kids {
					if pathStep(p.elems[s].n) == step {
						total++
						if s == c {
							k = total
						}
					}
				}
				if total > 1 {
					step += "[" + strconv.Itoa(k) + "]"
				}
			}
		}
		steps = append(steps, step)
		if c == root {
			break
		}
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return strings.Join(steps, "/")
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
