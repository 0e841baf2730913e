package records

import (
	"strings"

	"golang.org/x/net/html"
)

// disclosureToggle reports whether element e is a disclosure control rather than a
// record: it holds text, and all of it lies inside elements, e itself or below it, that
// carry aria-expanded (WAI-ARIA 1.2: the state of a control that shows or hides other
// content; the disclosure and menu-button patterns). A "More" or "Details" entry that
// opens a panel shares the make-up of the menu entries beside it, but it leads to
// nothing; a record that holds such a toggle holds other text too.
func disclosureToggle(p *page, e int32) bool {
	leaves := 0
	for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
		lf := &p.leaves[li]
		if lf.text == "" {
			continue
		}
		leaves++
		inside := false
		for c := lf.elem; c >= 0; c = p.elems[c].parent {
			if expandable(p.elems[c].n) {
				inside = true
				break
			}
			if c == e {
				break
			}
		}
		if !inside {
			return false
		}
	}
	return leaves > 0
}

// expandable reports whether n carries aria-expanded with the value true or false.
func expandable(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "aria-expanded" {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			return v == "true" || v == "false"
		}
	}
	return false
}

// toggleTest is the XPath form of "not a disclosure toggle" (disclosureToggle): the
// element carries no aria-expanded, and it holds a text outside the elements that do.
// XPath 1.0 cannot bound the ancestor axis at the element, so a record inside an element
// with aria-expanded (an open accordion panel) fails the test though match keeps it;
// Template.XPathExact then reports that the XPath does not select the records exactly.
const toggleTest = "[not(@aria-expanded='true' or @aria-expanded='false')]" +
	"[.//text()[normalize-space(.)!=''][not(ancestor::*[@aria-expanded='true' or @aria-expanded='false'])]]"

// learnToggles reports whether the type of pattern pt matches a disclosure toggle on a
// sample page (which match leaves out): its XPath then needs toggleTest to select the
// records alone.
func learnToggles(samples []*sample, sel *selection, pt *pattern) bool {
	for _, s := range samples {
		p := s.p
		for i := range p.elems {
			if e := &p.elems[i]; !e.skipped && e.tag == pt.tag && sel.matches(s, int32(i), pt) && disclosureToggle(p, int32(i)) {
				return true
			}
		}
	}
	return false
}
