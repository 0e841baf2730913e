package records

import (
	"hash/fnv"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Structural helpers: type-path hashes (the generic, index-free location of an element)
// and shapes (the set of tag paths below an element, to compare siblings).

// typeHashes computes, for every element of p, a hash of its type path: the record
// types (tag and tolerant attributes, no dfs, no positions) from the root down to it.
// Two elements with the same hash sit at the same generic location of the template.
func typeHashes(p *page, names []string) []uint64 {
	hs := make([]uint64, len(p.elems))
	for i := range p.elems {
		e := &p.elems[i]
		var parent uint64
		if e.parent >= 0 {
			parent = hs[e.parent]
		}
		hs[i] = typeHash(parent, e.n, names)
	}
	return hs
}

// FNV-1a, 64 bits (hash/fnv), written out so that the bytes of a record type are
// hashed without building the string.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// chainHash extends the type-path hash of a parent (0 for the root) by one record type.
func chainHash(parent uint64, typ string) uint64 {
	h := uint64(fnvOffset)
	for k := range 8 {
		h ^= (parent >> (8 * k)) & 0xff
		h *= fnvPrime
	}
	return fnvString(h, typ)
}

// typeHash is chainHash(parent, recordType(n, names)), computed without the string.
func typeHash(parent uint64, n *html.Node, names []string) uint64 {
	h := uint64(fnvOffset)
	for k := range 8 {
		h ^= (parent >> (8 * k)) & 0xff
		h *= fnvPrime
	}
	h = fnvString(h, n.Data)
	names = pathNames(n, names)
	// the tolerant attributes among names, in the order of their names (attrPredicate
	// of typeAttrs)
	var buf [8][2]string
	atts := buf[:0]
	for _, a := range n.Attr {
		if !slices.Contains(names, a.Key) {
			continue
		}
		if v := tolerantForm(a.Val); v != "" {
			atts = append(atts, [2]string{a.Key, v})
		}
	}
	if len(atts) == 0 {
		return h
	}
	slices.SortFunc(atts, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	h = fnvString(h, "[")
	for i, a := range atts {
		if i > 0 {
			h = fnvString(h, " and ")
		}
		h = fnvString(h, "@")
		h = fnvString(h, a[0])
		h = fnvString(h, "='")
		h = fnvString(h, a[1])
		h = fnvString(h, "'")
	}
	return fnvString(h, "]")
}

// typePath returns the type path of element e: the record types of its ancestors and
// itself, from the root down. hashTypePath of it is typeHashes(p)[e].
func typePath(p *page, e int32, names []string) []string {
	var steps []string
	for c := e; c >= 0; c = p.elems[c].parent {
		steps = append(steps, recordType(p.elems[c].n, names))
	}
	slices.Reverse(steps)
	return steps
}

// hashTypePath is the type-path hash of a type path written out by typePath.
func hashTypePath(steps []string) uint64 {
	var h uint64
	for _, s := range steps {
		h = chainHash(h, s)
	}
	return h
}

// shapeDepth bounds the tag paths of a shape.
const shapeDepth = 5

// shapeItem is one tag path of a shape with its number of occurrences.
type shapeItem struct {
	h uint64
	n int32
}

// shape returns the multiset of the tag paths (tags only) of the non-skipped
// descendants of element i, up to shapeDepth levels below it, sorted by hash. A bare
// span wrapper (bareWrapper) is no step of the paths: its child takes its place.
func shape(p *page, i int32) []shapeItem {
	var hs []uint64
	var walk func(j int32, h uint64, d int)
	walk = func(j int32, h uint64, d int) {
		for _, k := range p.elems[j].kids {
			if p.elems[k].skipped {
				continue
			}
			if bareWrapper(p, k) {
				walk(k, h, d) // no level of the shape
				continue
			}
			hk := h*1099511628211 ^ strHash(p.elems[k].tag)
			hs = append(hs, hk)
			if d+1 < shapeDepth {
				walk(k, hk, d+1)
			}
		}
	}
	walk(i, 14695981039346656037, 0)
	slices.Sort(hs)
	var out []shapeItem
	for _, h := range hs {
		if n := len(out); n > 0 && out[n-1].h == h {
			out[n-1].n++
			continue
		}
		out = append(out, shapeItem{h, 1})
	}
	return out
}

// bareWrapper reports an element that only wraps another: a span without any
// attribute, with one content child element and no text of its own. HTML's span means
// nothing on its own, and without attributes it carries no style hook either;
// frameworks put it around block content (tooltip and lazy-loading wrappers), which
// would set a record apart from its siblings by one level of every tag path. Other
// bare elements keep their level: a bare div is a block of the layout.
func bareWrapper(p *page, i int32) bool {
	e := &p.elems[i]
	if e.tag != "span" || len(e.n.Attr) > 0 {
		return false
	}
	kids := 0
	for _, k := range e.kids {
		if !p.elems[k].skipped {
			kids++
		}
	}
	if kids != 1 {
		return false
	}
	for c := e.n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return false
		}
	}
	return true
}

func strHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// similarity is the weighted Jaccard coefficient of two shapes, Σ min / Σ max over
// the tag paths: 1 for identical structures, low for elements of different size or
// make-up. Two empty shapes (text-only elements) are identical.
func similarity(a, b []shapeItem) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	i, j := 0, 0
	var lo, hi int
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i].h < b[j].h):
			hi += int(a[i].n)
			i++
		case i >= len(a) || b[j].h < a[i].h:
			hi += int(b[j].n)
			j++
		default:
			lo += int(min(a[i].n, b[j].n))
			hi += int(max(a[i].n, b[j].n))
			i++
			j++
		}
	}
	return float64(lo) / float64(hi)
}
