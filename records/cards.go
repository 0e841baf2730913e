package records

// Lists of titled cards (docs/decisions/2026-11-22-forest-ninth-pass-b.md). A card
// that shows a picture, a title in a heading element and a line of text beside the
// title presents one item of a collection with its name, image and description (the
// teaser of an article, a video, a product): a record, whatever the relevance of its
// words. Under RegionsAll such a list is kept below the relevance threshold. A heading
// alone under a picture is a caption or a label (a category tile), text without a
// heading has no title, and a list of two is no collection; lists in navigation
// landmarks stay navigation (choose never takes them).

// titledCard reports whether item m holds an image, a text inside a heading element
// (h1–h6) and a text outside every heading.
func titledCard(p *page, m int32) bool {
	e := &p.elems[m]
	img, titled, other := false, false, false
	for li := e.leafStart; li < e.leafEnd; li++ {
		lf := &p.leaves[li]
		switch {
		case lf.text == "":
			img = true
		case headingOf(p, lf.elem, m) >= 0:
			titled = true
		default:
			other = true
		}
	}
	return img && titled && other
}

// titledCardList reports whether, on every page, pt has at least specificItems
// elements and at least 80 % of them are titled cards (titledCard).
func titledCardList(samples []*sample, pt *pattern) bool {
	for si, elems := range pt.byPage {
		p := samples[si].p
		if len(elems) < specificItems {
			return false
		}
		n := 0
		for _, m := range elems {
			if titledCard(p, m) {
				n++
			}
		}
		if n*5 < len(elems)*4 {
			return false
		}
	}
	return len(pt.byPage) > 0
}
