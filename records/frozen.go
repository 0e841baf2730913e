package records

import (
	"unsafe"

	"golang.org/x/net/html"
)

// Attributes of a kept page, frozen. The attributes of a page's elements are about
// half of what the garbage collector marks in a kept page's tree (three strings each,
// 291,000 on the 41 NEXT-EVAL sample pages: 7 of 23 ms of a full collection), and a
// kept page waits, between the passes that read it, while other pages are parsed and
// processed. While it waits it is frozen: its elements hold no attributes, and the
// attributes are rows of offsets into one byte buffer, which the collector never
// scans. The page store thaws a page when it is handed out (the attributes come back
// as one array of strings into that buffer, in their order, so the tree is the same
// as before) and freezes the pages handed out at the points where Extract is done with
// them (pageStore.release).

// attrRow is one frozen attribute: its namespace, key and value as offsets and
// lengths in frozenAttrs.buf.
type attrRow struct {
	nsOff, nsLen, keyOff, keyLen, valOff, valLen uint32
}

// frozenAttrs holds the attributes of a page's elements while the page is frozen.
type frozenAttrs struct {
	buf  []byte    // the bytes of every namespace, key and value, never written again
	rows []attrRow // the attributes, element after element, in document order
	// at[i] is the first row of element i; at[len(elems)] = len(rows).
	at     []int32
	frozen bool
}

// freeze takes the attributes off the elements of p, recording them the first time.
func (p *page) freeze() {
	f := &p.attrs
	if f.frozen {
		return
	}
	if f.at == nil {
		p.recordAttrs()
	}
	for i := range p.elems {
		p.elems[i].n.Attr = nil
	}
	f.frozen = true
}

// recordAttrs fills p.attrs from the elements' attributes.
func (p *page) recordAttrs() {
	f := &p.attrs
	size, count := 0, 0
	for i := range p.elems {
		for _, a := range p.elems[i].n.Attr {
			size += len(a.Namespace) + len(a.Key) + len(a.Val)
			count++
		}
	}
	f.buf = make([]byte, 0, size)
	f.rows = make([]attrRow, 0, count)
	f.at = make([]int32, len(p.elems)+1)
	put := func(s string) (uint32, uint32) {
		off := len(f.buf)
		f.buf = append(f.buf, s...)
		return uint32(off), uint32(len(s))
	}
	for i := range p.elems {
		f.at[i] = int32(len(f.rows))
		for _, a := range p.elems[i].n.Attr {
			var r attrRow
			r.nsOff, r.nsLen = put(a.Namespace)
			r.keyOff, r.keyLen = put(a.Key)
			r.valOff, r.valLen = put(a.Val)
			f.rows = append(f.rows, r)
		}
	}
	f.at[len(p.elems)] = int32(len(f.rows))
}

// thaw gives the elements of a frozen page their attributes back.
func (p *page) thaw() {
	f := &p.attrs
	if !f.frozen {
		return
	}
	all := make([]html.Attribute, len(f.rows))
	str := func(off, n uint32) string {
		if n == 0 {
			return ""
		}
		return unsafe.String(&f.buf[off], int(n))
	}
	for k, r := range f.rows {
		all[k] = html.Attribute{Namespace: str(r.nsOff, r.nsLen), Key: str(r.keyOff, r.keyLen), Val: str(r.valOff, r.valLen)}
	}
	for i := range p.elems {
		if a, b := f.at[i], f.at[i+1]; a < b {
			p.elems[i].n.Attr = all[a:b:b]
		}
	}
	f.frozen = false
}
