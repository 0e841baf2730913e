package records

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"
)

// selection is the learnt wrapper of one template: the selected patterns and how to
// find their elements on any page of the template.
type selection struct {
	mode  Mode
	names []string
	pats  []*pattern
	// runs are the sibling runs of the patterns whose records span siblings.
	runs map[*pattern]*siblingRun
	// parallel marks the patterns whose rows continue in a parallel table.
	parallel map[*pattern]bool
}

// learn ranks the patterns of the sample pages, selects the wrapper and fills tpl.
func learn(samples []*sample, o *Options, tpl *Template) *selection {
	sel := &selection{mode: o.Mode, names: o.TypeAttributes}
	anySig := false
	for _, s := range samples {
		if n := len(s.p.sig); n > 0 && s.p.sig[n-1] > 0 {
			anySig = true
		}
	}
	if !anySig {
		tpl.Reason = "no signifier occurs on any sample page (no strong query term, no tf-idf term)"
		return sel
	}
	var pats []*pattern
	if o.Mode == ModeArticle {
		pats = articlePatterns(samples, o)
	} else {
		pats = recordPatterns(samples, o)
	}
	rank(samples, pats, o)
	sel.pats = choose(samples, pats, o)
	if len(sel.pats) == 0 {
		if o.Mode == ModeArticle {
			tpl.Reason = "no significant element"
		} else {
			tpl.Reason = "no repeated pattern holds a signifier (no record list)"
		}
	}
	if o.Mode == ModeRecords {
		sel.runs = map[*pattern]*siblingRun{}
		sel.parallel = map[*pattern]bool{}
		for _, pt := range sel.pats {
			sel.complete(samples, pt)
		}
	}
	for _, pt := range pats[:min(len(pats), o.RankingSize)] {
		tpl.Ranking = append(tpl.Ranking, candidateOf(samples, pt, slices.Contains(sel.pats, pt), genericXPath(samples, pt, false)))
	}
	var xps []string
	var each [][][]int32
	exact := true
	for _, pt := range sel.pats {
		xp, ok, elems := shortXPath(samples, sel, pt)
		exact = exact && ok
		each = append(each, elems)
		xps = append(xps, xp)
		tpl.Regions = append(tpl.Regions, candidateOf(samples, pt, true, xp))
	}
	tpl.XPath = strings.Join(xps, " | ")
	for _, pt := range sel.pats {
		if r := sel.runs[pt]; r != nil {
			tpl.Siblings = append(tpl.Siblings, r.String())
		} else if sel.parallel[pt] {
			tpl.Siblings = append(tpl.Siblings, "rows of the same index in a parallel table")
		}
	}
	if o.Mode == ModeArticle && len(sel.pats) > 0 {
		tpl.ForestXPath = forestXPath(samples, sel.pats[0])
	}
	tpl.Rules = sel.rules(samples)
	tpl.XPathExact = tpl.XPath != "" && exact && sel.unionMatches(samples, each)
	return sel
}

// complete learns what matching pt's records on a page needs beyond its type: the
// class tokens that set them apart, the disclosure-toggle test of its XPath, and the
// sibling run or parallel table rows each record spans.
func (sel *selection) complete(samples []*sample, pt *pattern) {
	pt.tokens = learnTokens(samples, sel, pt)
	pt.toggles = learnToggles(samples, sel, pt)
	if r := learnSiblings(samples, pt); r != nil {
		sel.runs[pt] = r
	} else if learnParallel(samples, pt) {
		sel.parallel[pt] = true
	}
}

// choose selects the wrapper's patterns from the ranked list. In article mode it is
// the best-ranked pattern. In record mode the list model scores every pattern but those
// of page chrome (lists in a landmark region: navigation, banner, footer, dialogs),
// which are never records: under RegionsAll the most probable pattern and every other
// one the model accepts are kept, best first, unless they overlap a better one; under
// RegionsBest the most probable pattern that holds a signifier and is no anchor list
// (the thesis leaves lists of anchors out, ch. 2 §6.3). The best pattern needs half the
// model's Threshold (a result page holds a list of records: the question is which), the
// others all of it.
func choose(samples []*sample, pats []*pattern, o *Options) []*pattern {
	if o.Mode == ModeArticle {
		for _, pt := range pats {
			if pt.rel > 0 {
				return []*pattern{pt}
			}
		}
		return nil
	}
	m := o.ListModel
	for i, f := range listFeatures(samples, pats) {
		pats[i].score = m.prob(f)
		if inChrome(pats[i].nav) {
			pats[i].score = 0
		}
	}
	if o.Regions == RegionsBest {
		var best *pattern
		for _, pt := range pats {
			if pt.rel > 0 && pt.nav != navAnchors && (best == nil || pt.score > best.score) {
				best = pt
			}
		}
		if best == nil || best.score < m.Threshold/2 {
			return nil
		}
		return []*pattern{best}
	}
	byScore := slices.Clone(pats)
	slices.SortStableFunc(byScore, func(a, b *pattern) int { return cmp.Compare(b.score, a.score) })
	var out []*pattern
	for i, pt := range byScore {
		if i > 0 && pt.score < m.Threshold || pt.score < m.Threshold/2 {
			break
		}
		if !overlaps(samples, pt, out) {
			out = append(out, pt)
		}
	}
	return out
}

// madeAlike reports whether elements elems of page p are made up alike: at least half
// of them share one sequence of leaf kinds (leafKinds), which it returns, and every
// other one has that sequence with leaves left out (optional fields).
func madeAlike(p *page, elems []int32) (string, bool) {
	if len(elems) == 0 {
		return "", false
	}
	kinds := make([]string, len(elems))
	count := map[string]int{}
	for k, e := range elems {
		kinds[k] = leafKinds(p, e)
		count[kinds[k]]++
	}
	mode := kinds[0]
	for _, k := range kinds {
		if count[k] > count[mode] {
			mode = k
		}
	}
	if 2*count[mode] < len(elems) {
		return mode, false
	}
	for _, k := range kinds {
		if !subsequence(k, mode) {
			return mode, false
		}
	}
	return mode, true
}

// subsequence reports whether a is b with letters left out.
func subsequence(a, b string) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// leafKinds returns the kinds of the leaves of element e in document order, one letter
// each: I an image, L a text inside a link, N another text that holds a digit, T other
// text.
func leafKinds(p *page, e int32) string {
	return string(appendLeafKinds(nil, p, e))
}

// appendLeafKinds appends leafKinds(p, e) to buf.
func appendLeafKinds(buf []byte, p *page, e int32) []byte {
	for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
		l := &p.leaves[li]
		switch {
		case l.text == "":
			buf = append(buf, 'I')
		case inLink(p, l.elem, e):
			buf = append(buf, 'L')
		case hasDigit(l.text):
			buf = append(buf, 'N')
		default:
			buf = append(buf, 'T')
		}
	}
	return buf
}

// overlaps reports whether an element of pt contains, or is contained in, an element
// of one of the chosen patterns on the same page.
func overlaps(samples []*sample, pt *pattern, chosen []*pattern) bool {
	for si, elems := range pt.byPage {
		p := samples[si].p
		for _, c := range chosen {
			for _, a := range c.byPage[si] {
				for _, b := range elems {
					if a == b || p.isAncestor(a, b) || p.isAncestor(b, a) {
						return true
					}
				}
			}
		}
	}
	return false
}

// match returns the wrapper's elements on page s in document order, dropping elements
// without leaves, disclosure toggles and pagers. An element that contains, or is contained in,
// an element of a better-ranked selected pattern is dropped: the better pattern's
// records win; within one pattern, the outermost elements are kept.
func (sel *selection) match(s *sample) []int32 {
	if len(sel.pats) == 0 {
		return nil
	}
	p := s.p
	var kept []int32
	for _, pt := range sel.pats {
		var mine []int32
		for i := range p.elems {
			e := &p.elems[i]
			if e.skipped || e.leafEnd == e.leafStart || !sel.matches(s, int32(i), pt) {
				continue
			}
			if sel.mode == ModeRecords && (disclosureToggle(p, int32(i)) || pager(p, int32(i))) {
				continue
			}
			clash := false
			for _, k := range kept {
				if k == int32(i) || p.isAncestor(k, int32(i)) || p.isAncestor(int32(i), k) {
					clash = true
					break
				}
			}
			if !clash {
				mine = append(mine, int32(i))
			}
		}
		for _, e := range mine {
			inside := false
			for _, o := range mine {
				if o != e && p.isAncestor(o, e) {
					inside = true
					break
				}
			}
			if !inside {
				kept = append(kept, e)
			}
		}
	}
	slices.Sort(kept)
	return kept
}

// records returns the wrapper's records on page s: each record's first element and the
// other sibling elements it spans. A record is returned once: when two selected
// patterns reach the same elements (the header and the body of one record, each
// taking the other as its sibling run), the record that comes first in document order
// keeps them and a later one that shares any of them is dropped.
func (sel *selection) records(s *sample) ([]int32, [][]int32) {
	firsts, extra := sel.spans(s)
	used := map[int32]bool{}
	keep := 0
	for i, f := range firsts {
		dup := used[f]
		for _, x := range extra[i] {
			dup = dup || used[x]
		}
		if dup {
			continue
		}
		used[f] = true
		for _, x := range extra[i] {
			used[x] = true
		}
		firsts[keep], extra[keep] = f, extra[i]
		keep++
	}
	return firsts[:keep], extra[:keep]
}

// spans returns the first element and the extra sibling elements of every matched
// element of page s, in document order.
func (sel *selection) spans(s *sample) ([]int32, [][]int32) {
	elems := sel.match(s)
	firsts := slices.Clone(elems)
	extra := make([][]int32, len(elems))
	for _, pt := range sel.pats {
		r := sel.runs[pt]
		if r == nil {
			continue
		}
		var idx []int
		var mine []int32
		for i, e := range elems {
			if sel.matches(s, e, pt) {
				idx = append(idx, i)
				mine = append(mine, e)
			}
		}
		f, x := r.attach(s.p, mine)
		for k, i := range idx {
			firsts[i], extra[i] = f[k], x[k]
		}
	}
	if len(sel.parallel) == 0 {
		return firsts, extra
	}
	// rows continued in a parallel table take its row of the same index, which is
	// then no record of its own
	taken := map[int32]bool{}
	for i, e := range elems {
		for pt := range sel.parallel {
			if sel.matches(s, e, pt) {
				if r := parallelRow(s.p, e); r >= 0 {
					extra[i] = append(extra[i], r)
					taken[r] = true
				}
				break
			}
		}
	}
	keep := 0
	for i := range elems {
		if taken[firsts[i]] {
			continue
		}
		firsts[keep], extra[keep] = firsts[i], extra[i]
		keep++
	}
	return firsts[:keep], extra[:keep]
}

// matches reports whether element i of s has pattern pt.
func (sel *selection) matches(s *sample, i int32, pt *pattern) bool {
	e := &s.p.elems[i]
	if e.tag != pt.tag {
		return false
	}
	if sel.mode == ModeArticle {
		return e.depth == pt.level && elementType(e.n, e.dfs, sel.names) == pt.dfsType
	}
	if e.parent < 0 || s.types[e.parent] != pt.parentHash {
		return false
	}
	if e.tag == "tr" && headerRow(s.p, i) {
		return false
	}
	if pt.child != "" {
		found := false
		for _, k := range s.p.kids(i) {
			if s.p.elems[k].tag == pt.child {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if !hasTokens(e.n, pt.tokens) {
		return false
	}
	if len(pt.attrs) == 0 {
		return true
	}
	atts := s.typeAttrs(i, sel.names)
	for _, a := range pt.attrs {
		if !slices.Contains(atts, a) {
			return false
		}
	}
	return true
}

// example returns one page and element of pt.
func example(pt *pattern) (int, int32) {
	best := -1
	for si := range pt.byPage {
		if best < 0 || si < best {
			best = si
		}
	}
	return best, pt.byPage[best][0]
}

// xpathSteps returns the generic steps from the root element down to element e: each
// step is the tag with the element's tolerant attributes as tests.
func xpathSteps(p *page, e int32, names []string) []string {
	var steps []string
	for c := e; c >= 0; c = p.elems[c].parent {
		n := p.elems[c].n
		firsts := map[string][]string{}
		pn := pathNames(n, names)
		firstTokens(n, pn, firsts)
		steps = append(steps, n.Data+xpathPredicate(pn, firsts))
	}
	slices.Reverse(steps)
	return steps
}

// genericXPath returns the full generic XPath of pt from the root (/html/…); with
// content it adds the test that the element has text or an image.
func genericXPath(samples []*sample, pt *pattern, content bool) string {
	xp := "/" + strings.Join(genericSteps(samples, pt), "/")
	if content {
		xp += contentTest
	}
	return xp
}

// genericSteps returns the steps of pt's generic XPath from the root element.
func genericSteps(samples []*sample, pt *pattern) []string {
	si, e := example(pt)
	p := samples[si].p
	names := sampleNames(samples)
	var steps []string
	if pt.dfsType == "" {
		// record mode: typed ancestors, then the record step tested on the attributes
		// common to the pattern's elements
		steps = xpathSteps(p, p.elems[e].parent, names)
		firsts := map[string][]string{}
		var common []string
		for _, a := range pt.attrs {
			common = append(common, a[0])
		}
		for sj, elems := range pt.byPage {
			for _, m := range elems {
				firstTokens(samples[sj].p.elems[m].n, common, firsts)
			}
		}
		step := pt.tag + xpathPredicate(common, firsts)
		if tt := tokenTests(samples, pt); len(tt) > 0 {
			step += "[" + strings.Join(tt, " and ") + "]"
		}
		if pt.child != "" {
			step += "[" + pt.child + "]"
		}
		if pt.toggles {
			step += toggleTest
		}
		steps = append(steps, step)
	} else {
		steps = xpathSteps(p, e, names)
	}
	return steps
}

// contentTest keeps elements with text or an image, as the segmenter does.
const contentTest = "[normalize-space(.)!='' or .//img]"

func sampleNames(samples []*sample) []string {
	if len(samples) > 0 && samples[0].names != nil {
		return samples[0].names
	}
	return DefaultTypeAttributes
}

// shortXPath returns the shortest suffix of pt's generic path, anchored at a step with
// an attribute test, that selects exactly pt's elements on every sample page, or the
// full path when none does; whether the XPath returned selects them exactly; and pt's
// elements on every sample page.
func shortXPath(samples []*sample, sel *selection, pt *pattern) (string, bool, [][]int32) {
	single := &selection{mode: sel.mode, names: sel.names, pats: []*pattern{pt}}
	want := make([][]int32, len(samples))
	for i, s := range samples {
		want[i] = single.match(s)
	}
	steps := genericSteps(samples, pt)
	tries := 0
	for k := len(steps) - 2; k >= 1 && tries < 4; k-- {
		if !strings.Contains(steps[k], "[") {
			continue
		}
		tries++
		xp := "//" + strings.Join(steps[k:], "/") + contentTest
		if xpathSelects(samples, want, xp) {
			return xp, true, want
		}
	}
	full := "/" + strings.Join(steps, "/") + contentTest
	return full, xpathSelects(samples, want, full), want
}

// xpathSelects reports whether xp selects exactly the elements want on every sample
// page.
//
// The content test that ends the XPaths of shortXPath is evaluated natively on the
// elements the rest selects (contentOK): it is the last predicate of the last step and
// does not depend on position, so filtering afterwards selects the same elements, and
// the XPath engine's string value of every candidate (a copy of its text) is spared.
//
// XPaths of FOREST's own form are evaluated natively (nativeXPath), others and pages
// the native evaluator declines by the XPath engine.
func xpathSelects(samples []*sample, want [][]int32, xp string) bool {
	base, content := strings.CutSuffix(xp, contentTest)
	nx, native := parseNativeXPath(base)
	var expr *xpath.Expr
	if !native {
		var err error
		if expr, err = xpath.Compile(base); err != nil {
			return false
		}
	}
	for i, s := range samples {
		var got []*html.Node
		ok := false
		if native {
			got, ok = nx.selectAll(s.p)
		}
		if !ok {
			if expr == nil {
				var err error
				if expr, err = xpath.Compile(base); err != nil {
					return false
				}
			}
			got = htmlquery.QuerySelectorAll(s.p.doc, expr)
		}
		if xpathAudit != nil {
			xpathAudit(s.p.doc, base, got)
		}
		if content {
			got = slices.DeleteFunc(got, func(n *html.Node) bool { return !contentOK(n) })
		}
		if len(got) != len(want[i]) {
			return false
		}
		set := make(map[*html.Node]bool, len(got))
		for _, n := range got {
			set[n] = true
		}
		for _, e := range want[i] {
			if !set[s.p.elems[e].n] {
				return false
			}
		}
	}
	return true
}

// xpathAudit, when set (by tests), sees every XPath the self-check evaluates with the
// elements selected.
var xpathAudit func(doc *html.Node, xp string, got []*html.Node)

// contentOK is contentTest on element n: a normalised string value that is not empty
// (a text node below n with a rune other than white space) or .//img (an img element
// below n).
func contentOK(n *html.Node) bool {
	found, valid := false, true
	var walk func(c *html.Node)
	walk = func(c *html.Node) {
		for d := c.FirstChild; d != nil && !found; d = d.NextSibling {
			switch d.Type {
			case html.TextNode:
				if !utf8.ValidString(d.Data) {
					valid = false
				} else if strings.TrimSpace(d.Data) != "" {
					found = true
				}
			case html.ElementNode:
				if d.Data == "img" {
					found = true
				} else {
					walk(d)
				}
			case html.CommentNode:
			default:
				walk(d)
			}
		}
	}
	walk(n)
	if !found && !valid {
		// split multi-byte sequences could join across text nodes: the engine's way
		return strings.TrimSpace(htmlquery.InnerText(n)) != "" || hasImg(n)
	}
	return found
}

// hasImg reports whether an img element is below n.
func hasImg(n *html.Node) bool {
	for d := n.FirstChild; d != nil; d = d.NextSibling {
		if d.Type == html.ElementNode && d.Data == "img" || hasImg(d) {
			return true
		}
	}
	return false
}

// unionMatches reports whether the wrapper's elements on every sample page are the
// union of its patterns' own elements (each[k][i]: pattern k's on page i), that is,
// whether no pattern's element gave way to a better pattern's: the union of exact
// per-pattern XPaths then selects the wrapper's elements exactly.
func (sel *selection) unionMatches(samples []*sample, each [][][]int32) bool {
	for i, s := range samples {
		union := map[int32]bool{}
		for k := range each {
			for _, e := range each[k][i] {
				union[e] = true
			}
		}
		if len(sel.match(s)) != len(union) {
			return false
		}
	}
	return true
}

// candidateOf converts a pattern for the wrapper.
func candidateOf(samples []*sample, pt *pattern, selected bool, xp string) Candidate {
	c := Candidate{XPath: xp, Level: pt.level, Pages: len(pt.byPage), I: pt.info, R: pt.rel,
		Fields: pt.fields, Navigation: pt.nav, Groups: pt.groups, Score: pt.score, Selected: selected}
	for si, elems := range pt.byPage {
		c.Elements += len(elems)
		cnt := pt.perPage[si]
		c.X += cnt.x
		c.Y += cnt.y
	}
	_ = samples
	return c
}

// rules writes the selected patterns out as Rules, in the order of the regions.
func (sel *selection) rules(samples []*sample) []Rule {
	var out []Rule
	for _, pt := range sel.pats {
		r := Rule{Tag: pt.tag, Attrs: slices.Clone(pt.attrs), Child: pt.child, Tokens: slices.Clone(pt.tokens)}
		if sel.mode == ModeArticle {
			r.Level, r.Type = pt.level, pt.dfsType
		} else {
			si, e := example(pt)
			p := samples[si].p
			r.Parent = typePath(p, p.elems[e].parent, sel.names)
		}
		if run := sel.runs[pt]; run != nil {
			r.Siblings = &SiblingRule{Types: slices.Clone(run.types), Before: run.before}
		}
		r.Parallel = sel.parallel[pt]
		out = append(out, r)
	}
	return out
}

// selectionOf rebuilds the selection of a template from its rules.
func selectionOf(mode Mode, names []string, rules []Rule) *selection {
	sel := &selection{mode: mode, names: names, runs: map[*pattern]*siblingRun{}, parallel: map[*pattern]bool{}}
	for _, r := range rules {
		pt := &pattern{tag: r.Tag, attrs: r.Attrs, child: r.Child, tokens: r.Tokens, level: r.Level, dfsType: r.Type}
		if mode == ModeRecords {
			pt.parentHash = hashTypePath(r.Parent)
		}
		sel.pats = append(sel.pats, pt)
		if r.Siblings != nil {
			sel.runs[pt] = &siblingRun{types: r.Siblings.Types, before: r.Siblings.Before}
		}
		if r.Parallel {
			sel.parallel[pt] = true
		}
	}
	return sel
}

// hasDigit reports whether s holds a decimal digit of any script
// (strings.IndexFunc(s, unicode.IsDigit) >= 0, reading ASCII bytes directly).
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			return true
		case c >= 0x80:
			return strings.IndexFunc(s[i:], unicode.IsDigit) >= 0
		}
	}
	return false
}
