package records

// directoryMinLinks is the least number of linked texts in a directory of links
// (linkDirectory).
const directoryMinLinks = 10

// linkDirectory reports whether element e is a directory of links rather than a
// record: it holds directoryMinLinks linked texts or more, and no text outside its
// links but one before them all (the directory's title). A box of a caption and a
// column of twenty category links has the make-up of its sibling boxes, but it is an
// index of other pages: its texts are link labels, no field of it describes an entity.
// A record holds its values as text beside the link to its page (a price, a date, the
// snippet after a linked title, before its tags).
func linkDirectory(p *page, e int32) bool {
	linked, other := 0, 0
	for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
		lf := &p.leaves[li]
		if lf.text == "" {
			continue
		}
		if inLink(p, lf.elem, e) {
			linked++
		} else if other++; other > 1 || linked > 0 {
			return false
		}
	}
	return linked >= directoryMinLinks
}
