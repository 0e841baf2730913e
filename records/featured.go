package records

import (
	"slices"
	"strings"
)

// Featured records: a record shown apart from its list — the lead story above a news
// river, the hero card of an events page above the grid of the other events. It sits
// in a wrapper of its own, so it is no member of the list's pattern, and alone it
// makes no candidate list. What it shares with the list is the record's inner
// make-up: the block that holds all its fields (its core) is built by the same
// component, with the same tag and classes, as the cores of the list's records. A
// page renders such a component wherever it shows one of its records.

// coreOf descends from element e while a single child holds all of e's text leaves
// (wrappers, a link around a card, a figure beside a text block without text of its
// own) and returns the element it stops at, the core, with the number of levels
// descended.
func coreOf(p *page, e int32) (int32, int) {
	d := 0
	for {
		tl := textLeaves(p, e)
		if tl == 0 {
			return e, d
		}
		next := int32(-1)
		for _, k := range p.elems[e].kids {
			if !p.elems[k].skipped && textLeaves(p, k) == tl {
				next = k
				break
			}
		}
		if next < 0 {
			return e, d
		}
		e, d = next, d+1
	}
}

// coreSignature is the type of core c and of its parent (tag and tolerant type
// attributes), "" when neither carries an attribute: a bare div inside a bare div is
// no component.
func coreSignature(p *page, c int32, names []string) string {
	par := p.elems[c].parent
	if par < 0 {
		return ""
	}
	a, b := recordType(p.elems[c].n, names), recordType(p.elems[par].n, names)
	if !strings.Contains(a, "[") && !strings.Contains(b, "[") {
		return ""
	}
	return a + "<" + b
}

// featuredShare is the share of a pattern's records on a page whose cores must share
// one signature for it to be the records' component.
const featuredShare = 0.8

// recordComponent returns the signature of the cores of pt's records, the least
// number of levels the records sit above their cores, and the first core: the most
// common signature on every page of pt, held by at least featuredShare of its records
// there. ok is false when the pages disagree or no signature is common enough.
func recordComponent(samples []*sample, pt *pattern, names []string) (sig string, lift int, ref [2]int32, ok bool) {
	lift = -1
	haveRef := false
	for _, si := range sortedPages(pt) {
		p := samples[si].p
		elems := pt.byPage[si]
		count := map[string]int{}
		for _, e := range elems {
			c, _ := coreOf(p, e)
			count[coreSignature(p, c, names)]++
		}
		best := ""
		for s, n := range count {
			if s != "" && (n > count[best] || n == count[best] && s < best) {
				best = s
			}
		}
		if best == "" || float64(count[best]) < featuredShare*float64(len(elems)) || sig != "" && best != sig {
			return "", 0, ref, false
		}
		sig = best
		for _, e := range elems {
			c, d := coreOf(p, e)
			if coreSignature(p, c, names) != sig {
				continue
			}
			if lift < 0 || d < lift {
				lift = d
			}
			if !haveRef {
				ref, haveRef = [2]int32{int32(si), c}, true
			}
		}
	}
	return sig, lift, ref, sig != ""
}

// sortedPages returns the sample pages of pt in order.
func sortedPages(pt *pattern) []int {
	out := make([]int, 0, len(pt.byPage))
	for si := range pt.byPage {
		out = append(out, si)
	}
	slices.Sort(out)
	return out
}

// featuredPatterns returns, for the selected patterns of sel, the patterns of their
// featured records on the sample pages. For a selected pattern whose records' cores
// have one signature (recordComponent), an element of that signature elsewhere on a
// page is the core of a featured record when
//
//   - it lies outside every record of the wrapper, outside landmarks (navigation,
//     header, footer, dialogs) and outside the items of navigation lists;
//   - its shape is similar to the first record core's (≥ shapeDiff, the threshold of
//     sibling grouping), and it holds at least two text leaves;
//   - its text is not that of a record: a copy of a listed record that a page keeps
//     for another screen size is the same record (it is returned once);
//   - the page holds fewer elements of the signature outside the records than
//     records of the pattern: a featured record is shown apart from many, while a
//     component found all over the page is layout.
//
// The record is the core lifted by as many levels as the list's records sit above
// their cores, as long as the wrappers add no text. Its pattern is the record's tag,
// attributes and parent type path; it is kept only when it matches the featured
// records and nothing else on every sample page.
func featuredPatterns(samples []*sample, sel *selection) []*pattern {
	names := sel.names
	// the elements of each page with two text leaves or more, by core signature
	bySig := make([]map[string][]int32, len(samples))
	recs := make([][]int32, len(samples))
	texts := make([]map[string]bool, len(samples))
	index := func(si int) {
		if bySig[si] != nil {
			return
		}
		p := samples[si].p
		bySig[si] = map[string][]int32{}
		for i := range p.elems {
			c := int32(i)
			if p.elems[c].skipped || textLeaves(p, c) < 2 {
				continue
			}
			if s := coreSignature(p, c, names); s != "" {
				bySig[si][s] = append(bySig[si][s], c)
			}
		}
		recs[si] = sel.match(samples[si])
		texts[si] = map[string]bool{}
		for _, r := range recs[si] {
			texts[si][p.text(r)] = true
		}
	}
	var out []*pattern
	byKey := map[uint64]*pattern{}
	for _, pt := range sel.pats {
		sig, lift, ref, ok := recordComponent(samples, pt, names)
		if !ok {
			continue
		}
		refShape := shape(samples[ref[0]].p, ref[1])
		for si, s := range samples {
			index(si)
			p := s.p
			var outside []int32
			for _, c := range bySig[si][sig] {
				if !overlapsAny(p, c, recs[si]) {
					outside = append(outside, c)
				}
			}
			if len(outside) == 0 || len(outside) >= len(pt.byPage[si]) {
				continue // none, or a component found everywhere: layout
			}
			for _, c := range outside {
				if inLandmark(p, c) || inNavList(s, c) || similarity(shape(p, c), refShape) < shapeDiff || texts[si][p.text(c)] {
					continue
				}
				top := c
				for range lift {
					par := p.elems[top].parent
					if par < 0 || textLeaves(p, par) != textLeaves(p, c) || overlapsAny(p, par, recs[si]) {
						break
					}
					top = par
				}
				fp := featuredPattern(s, si, top, names)
				if fp == nil {
					continue
				}
				if o := byKey[fp.key]; o != nil {
					if !slices.Contains(o.byPage[si], top) {
						o.byPage[si] = append(o.byPage[si], top)
					}
					continue
				}
				byKey[fp.key] = fp
				out = append(out, fp)
			}
		}
	}
	// keep a pattern only when it matches exactly its featured records
	return slices.DeleteFunc(out, func(fp *pattern) bool {
		check := &selection{mode: ModeRecords, names: names, pats: []*pattern{fp}}
		for si, s := range samples {
			got := check.match(s)
			if len(got) != len(fp.byPage[si]) {
				return true
			}
			for _, e := range got {
				if !slices.Contains(fp.byPage[si], e) {
					return true
				}
			}
		}
		return false
	})
}

// featuredPattern is the pattern of record e of sample page s (number si): its tag,
// its tolerant type attributes and the type path of its parent.
func featuredPattern(s *sample, si int, e int32, names []string) *pattern {
	p := s.p
	par := p.elems[e].parent
	if par < 0 {
		return nil
	}
	atts := typeAttrs(p.elems[e].n, names)
	tag := p.elems[e].tag
	return &pattern{id: -1, key: patternKey(s.types[par], tag, atts), parentHash: s.types[par], tag: tag,
		attrs: atts, level: p.elems[e].depth, byPage: map[int][]int32{si: {e}}}
}

// overlapsAny reports whether e is, contains or lies inside one of elems.
func overlapsAny(p *page, e int32, elems []int32) bool {
	for _, x := range elems {
		if x == e || p.isAncestor(x, e) || p.isAncestor(e, x) {
			return true
		}
	}
	return false
}

// inLandmark reports whether e is or lies inside a landmark region (landmark).
func inLandmark(p *page, e int32) bool {
	for a := e; a >= 0; a = p.elems[a].parent {
		if landmark(p.elems[a].n) != "" {
			return true
		}
	}
	return false
}

// inNavList reports whether e is or lies inside an item of a navigation list of s.
func inNavList(s *sample, e int32) bool {
	p := s.p
	for _, l := range s.lists {
		if !navigational(l.nav) || !(l.parent == e || p.isAncestor(l.parent, e)) {
			continue
		}
		for _, m := range l.members {
			if m == e || p.isAncestor(m, e) {
				return true
			}
		}
	}
	return false
}
