package records

import (
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
	hs, _ := typeIndex(p, names)
	return hs
}

// typeIndex returns typeHashes and, for every element, its tolerant attributes among
// names (typeAttrs), computed once into one table.
func typeIndex(p *page, names []string) ([]uint64, typeAttrTable) {
	hs := make([]uint64, len(p.elems))
	most := 0 // the attributes among names: a bound of the pairs
	for i := range p.elems {
		for _, a := range p.elems[i].n.Attr {
			if slices.Contains(names, a.Key) {
				most++
			}
		}
	}
	t := typeAttrTable{off: make([]int32, len(p.elems)+1), pairs: make([][2]string, 0, most)}
	for i := range p.elems {
		e := &p.elems[i]
		var parent uint64
		if e.parent >= 0 {
			parent = hs[e.parent]
		}
		if len(e.n.Attr) > 0 {
			t.pairs = appendTypeAttrs(t.pairs, e.n, names)
		}
		t.off[i+1] = int32(len(t.pairs))
		hs[i] = typeHashAttrs(parent, e.n, names, t.of(int32(i)))
	}
	packInPlace(len(t.pairs), func(i int) *string { return &t.pairs[i][1] })
	return hs, t
}

// typeAttrTable holds the tolerant attributes of every element of a page: those of
// element i are pairs[off[i]:off[i+1]]. One array of pairs and one of offsets, not a
// slice per element: the table is kept as long as the page, and the collector marks
// every pointer it holds on every cycle.
type typeAttrTable struct {
	pairs [][2]string
	off   []int32
}

// of returns the tolerant attributes of element i, nil when it has none; capped, so
// that an append to them copies.
func (t typeAttrTable) of(i int32) [][2]string {
	a, b := t.off[i], t.off[i+1]
	if a == b {
		return nil
	}
	return t.pairs[a:b:b]
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

// typeHashAttrs is chainHash(parent, recordType(n, names)), computed without the
// string from atts = typeAttrs(n, names).
func typeHashAttrs(parent uint64, n *html.Node, names []string, atts [][2]string) uint64 {
	h := uint64(fnvOffset)
	for k := range 8 {
		h ^= (parent >> (8 * k)) & 0xff
		h *= fnvPrime
	}
	h = fnvString(h, n.Data)
	if len(atts) == 0 {
		return h
	}
	// a table body section's id leaves its type in some tables (pathNames)
	dropID := n.Data == "tbody" && len(pathNames(n, names)) < len(names)
	open := false
	for _, a := range atts {
		if dropID && a[0] == "id" {
			continue
		}
		if !open {
			h = fnvString(h, "[")
			open = true
		} else {
			h = fnvString(h, " and ")
		}
		h = fnvString(h, "@")
		h = fnvString(h, a[0])
		h = fnvString(h, "='")
		h = fnvString(h, a[1])
		h = fnvString(h, "'")
	}
	if !open {
		return h
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
	out, _ := shapeBuf(p, i, nil, nil)
	return out
}

// shapeBuf is shape with a scratch buffer for the tag-path hashes, returned for the
// next call, and optionally a table of bareWrapper by element (0 not known yet, 1
// bare, 2 not) filled as it goes. An empty shape is a non-nil empty slice.
func shapeBuf(p *page, i int32, hs []uint64, bare []int8) ([]shapeItem, []uint64) {
	hs = hs[:0]
	isBare := func(k int32) bool {
		if bare == nil {
			return bareWrapper(p, k)
		}
		if bare[k] == 0 {
			bare[k] = 2
			if bareWrapper(p, k) {
				bare[k] = 1
			}
		}
		return bare[k] == 1
	}
	var walk func(j int32, h uint64, d int)
	walk = func(j int32, h uint64, d int) {
		for _, k := range p.kids(j) {
			if p.elems[k].skipped {
				continue
			}
			if isBare(k) {
				walk(k, h, d) // no level of the shape
				continue
			}
			hk := h*fnvPrime ^ p.elems[k].tagHash
			hs = append(hs, hk)
			if d+1 < shapeDepth {
				walk(k, hk, d+1)
			}
		}
	}
	walk(i, fnvOffset, 0)
	slices.Sort(hs)
	distinct := 0
	for k, h := range hs {
		if k == 0 || hs[k-1] != h {
			distinct++
		}
	}
	out := make([]shapeItem, 0, distinct)
	for _, h := range hs {
		if n := len(out); n > 0 && out[n-1].h == h {
			out[n-1].n++
			continue
		}
		out = append(out, shapeItem{h, 1})
	}
	return out, hs
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
	for _, k := range p.kids(i) {
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

// strHash is the 64-bit FNV-1a hash of s (hash/fnv's New64a).
func strHash(s string) uint64 { return fnvString(fnvOffset, s) }

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
