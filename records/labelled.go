package records

import "strings"

// Lists that make up a named region. An author who gives a section of the page an
// accessible name (aria-label or aria-labelledby on a section, or on an element with
// role region or group: WAI-ARIA 1.2, "region … sufficiently important that users will
// likely want to be able to navigate to the section easily") says what the section
// holds; when a list makes up most of such a section and its items are made up alike
// with several fields, the section is a named collection of records ("Properties from
// $1,400,000", "Services for homeowners"), whatever the relevance of its words.

// regionRoles are the roles of a section that a name makes a region of the page.
var regionRoles = map[string]bool{"region": true, "group": true}

// namedRegion returns the nearest ancestor of element e that is a section or has role
// region or group, when it carries an accessible name; -1 otherwise.
func namedRegion(p *page, e int32) int32 {
	for a := p.elems[e].parent; a >= 0; a = p.elems[a].parent {
		n := p.elems[a].n
		if n.Data != "section" && !regionRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))] {
			continue
		}
		if strings.TrimSpace(attr(n, "aria-label")) == "" && strings.TrimSpace(attr(n, "aria-labelledby")) == "" {
			return -1
		}
		return a
	}
	return -1
}

// namedRegionList reports whether every list of pt makes up at least half of the text
// of a named region (namedRegion), and, on every page, the elements of pt are at least
// specificItems, made up alike (madeAlike) with at least specificLeaves text leaves.
func namedRegionList(samples []*sample, pt *pattern) bool {
	if len(pt.lists) == 0 {
		return false
	}
	for si, elems := range pt.byPage {
		if len(elems) < specificItems {
			return false
		}
		mode, ok := madeAlike(samples[si].p, elems)
		if !ok || strings.Count(mode, "I") > len(mode)-specificLeaves {
			return false
		}
	}
	for _, l := range pt.lists {
		p := samples[l.page].p
		r := namedRegion(p, l.parent)
		if r < 0 {
			return false
		}
		toks := 0
		for _, m := range l.members {
			toks += p.ntoks(m)
		}
		if 2*toks < p.ntoks(r) {
			return false
		}
	}
	return true
}
