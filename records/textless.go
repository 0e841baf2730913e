package records

import "slices"

// textlessShare is the least share of a pattern's matches on a page that must hold text
// before the matches without any are dropped (dropTextless).
const textlessShare = 0.8

// textless reports whether element e has leaves (an image, an empty link) but no text.
func textless(p *page, e int32) bool {
	for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
		if p.leaves[li].text != "" {
			return false
		}
	}
	return true
}

// dropTextless drops, among the matches of one pattern on page p, those that hold no
// text when at least three of them, and at least textlessShare of them, hold text, and
// textlessShare of those hold two text leaves or more (fields: a name and a price, a
// title and a line). A tile of a picture alone among product or article tiles that
// name and price or describe their item is a promotional block of the grid (a banner
// in a cell of the product grid): it has the records' type but none of their data
// fields. A gallery whose items are all pictures keeps them, so does a list where
// pictures alone are common, and so does a gallery whose pictures carry one caption
// each (an image result may lack its caption).
func dropTextless(p *page, mine []int32) []int32 {
	with, fields := 0, 0
	for _, e := range mine {
		if n := textLeaves(p, e); n > 0 {
			with++
			if n >= 2 {
				fields++
			}
		}
	}
	if with < 3 || with == len(mine) || float64(with) < textlessShare*float64(len(mine)) ||
		float64(fields) < textlessShare*float64(with) {
		return mine
	}
	return slices.DeleteFunc(mine, func(e int32) bool { return textless(p, e) })
}

// textTest is the XPath form of dropTextless for a pattern that lost a match to it: the
// element holds text. It is added only then (learnTextless), so a gallery's XPath keeps
// selecting its pictures.
const textTest = "[normalize-space(.)!='']"

// learnTextless reports whether dropTextless leaves out a match of pattern pt on a
// sample page: its XPath then needs textTest to select the records alone.
func learnTextless(samples []*sample, sel *selection, pt *pattern) bool {
	for _, s := range samples {
		p := s.p
		var mine []int32
		for i := range p.elems {
			if e := &p.elems[i]; !e.skipped && e.leafEnd > e.leafStart && e.tag == pt.tag && sel.matches(s, int32(i), pt) {
				mine = append(mine, int32(i))
			}
		}
		if len(dropTextless(p, slices.Clone(mine))) < len(mine) {
			return true
		}
	}
	return false
}
