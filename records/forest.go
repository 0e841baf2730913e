package records

import (
	"cmp"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// FOREST (thesis ch. 2 §6, Algorithms 3 and 4) over a set of sample pages that share a
// template, in two modes that share the measures and the ranking:
//
//   - article mode is the thesis verbatim: the elements on significant terminal paths are
//     typed by Def. 2 (tolerant attributes, or the dfs number when they have none), a
//     structural pattern is (element type, level), I(sp, d) sums J×U over the elements of
//     the pattern in page d, and R = Σ_d I(sp, d) × p × level ranks the patterns;
//   - record mode keeps J, U, p and level but changes what a pattern is, because a result
//     page holds a list: a pattern is a set of similar sibling elements (the records),
//     typed without dfs by their tag, their common tolerant attributes and the type path
//     of their parent, so that the records of one page and of all pages fall into one
//     pattern. I(sp, d) is J×U of the pattern's records of page d taken together (the
//     list is the informative block; its records are the unit of output). See
//     docs/decisions/2026-11-22-forest-record-patterns.md.

// list is a run of similar siblings on one page: a candidate record list.
type list struct {
	page    int
	parent  int32
	members []int32
	nav     string // why the list is navigation, not records ("" if it is not)
}

// pattern is a structural pattern with its occurrences on the sample pages.
type pattern struct {
	id         int
	key        uint64
	parentHash uint64
	tag        string
	attrs      [][2]string
	level      int
	// dfsType is the thesis element type with rule (ii) (article mode only).
	dfsType string
	lists   []list
	byPage  map[int][]int32 // page → elements of the pattern
	// ranking
	perPage map[int]counts
	info    float64 // Σ_d I(sp, d)
	rel     float64 // R
	fields  bool    // a fixed tuple of fields inside the records of another pattern
	fieldOf int     // the pattern whose fields these are
	nav     string  // why the pattern is navigation, not records
	groups  bool    // its elements are groups of records (markGroups)
	child   string  // a child tag every element of the pattern has ("" if none)
	// tokens are class tokens (tolerant forms) a match must carry (learnTokens).
	tokens []string
	// toggles: the pattern's type matches a disclosure toggle on a sample page, and its
	// XPath carries toggleTest (learnToggles).
	toggles bool
	// score is the list model's probability that the pattern's elements are records.
	score float64
}

// counts are the signifier and other-term counts of a pattern on one page.
type counts struct{ x, y, bigX, bigY int }

// sample is a parsed sample page with its per-element type hashes.
type sample struct {
	p     *page
	types []uint64
	echo  map[int32]bool
	names []string // the type attributes the types were computed with
	// atts are the tolerant attributes of every element among names (typeAttrs), empty
	// when not computed; shared, never to be modified
	atts  typeAttrTable
	lists []list // candidate record lists (record mode)
}

// newSample indexes the types of page p with the type attributes names.
func newSample(p *page, names []string) *sample {
	s := &sample{p: p, names: names}
	s.types, s.atts = typeIndex(p, names)
	p.forms, p.formClass, p.formID = s.atts, slices.Contains(names, "class"), slices.Contains(names, "id")
	return s
}

// typeAttrs returns typeAttrs of element i among names, from the sample's table when
// names are its own. The caller must not modify it.
func (s *sample) typeAttrs(i int32, names []string) [][2]string {
	if s.atts.off != nil && (len(names) > 0 && len(s.names) == len(names) && &names[0] == &s.names[0] || slices.Equal(names, s.names)) {
		return s.atts.of(i)
	}
	return typeAttrs(s.p.elems[i].n, names)
}

// cluster is a group of similar siblings in the making: its first member is its
// representative; members is nil while it is the only one.
type cluster struct {
	rep     int32
	repAtts [][2]string
	members []int32
}

// similarity thresholds of sibling grouping: siblings with the same tolerant attributes
// need shapeSame, siblings that differ in them need shapeDiff.
const (
	shapeSame = 0.35
	shapeDiff = 0.6
)

// siblingGroups splits the content children of element parent into groups of similar
// siblings: same tag, and a shape (tag paths below them) similar to the group's first
// member.
func siblingGroups(s *sample, parent int32, names []string, shapes *shapeTable) [][]int32 {
	p := s.p
	// clusters by value, in the shape table's scratch; a cluster's members are
	// allocated when a second one joins (most siblings stay alone)
	clusters := shapes.clusters[:0]
	for _, k := range p.kids(parent) {
		e := &p.elems[k]
		if e.skipped || e.leafEnd == e.leafStart {
			continue
		}
		sh := shapes.of(k)
		atts := s.typeAttrs(k, names)
		best := -1
		bestSim := -1.0
		for ci := range clusters {
			c := &clusters[ci]
			if p.elems[c.rep].tag != e.tag {
				continue
			}
			sim := similarity(shapes.of(c.rep), sh)
			need := shapeDiff
			if len(atts) > 0 && slices.Equal(atts, c.repAtts) {
				need = shapeSame
			}
			if sim >= need && sim > bestSim {
				best, bestSim = ci, sim
			}
		}
		if best < 0 {
			clusters = append(clusters, cluster{rep: k, repAtts: atts})
			continue
		}
		c := &clusters[best]
		if c.members == nil {
			c.members = []int32{c.rep, k}
		} else {
			c.members = append(c.members, k)
		}
	}
	var out [][]int32
	for _, c := range clusters {
		if len(c.members) >= 2 {
			out = append(out, c.members)
		}
	}
	clear(clusters) // the scratch keeps no members or attributes of this parent
	shapes.clusters = clusters
	return out
}

// shapeTable computes the shapes of a page's elements once.
type shapeTable struct {
	p      *page
	shapes [][]shapeItem // by element; nil: not computed yet
	bare   []int8        // bareWrapper by element (shapeBuf)
	buf    []uint64
	// clusters is siblingGroups' scratch
	clusters []cluster
}

func newShapeTable(p *page) *shapeTable {
	return &shapeTable{p: p, shapes: make([][]shapeItem, len(p.elems)), bare: make([]int8, len(p.elems))}
}

func (t *shapeTable) of(i int32) []shapeItem {
	if t.shapes[i] == nil {
		t.shapes[i], t.buf = shapeBuf(t.p, i, t.buf, t.bare)
	}
	return t.shapes[i]
}

// commonAttrs returns the tolerant attributes shared by all members.
func commonAttrs(s *sample, members []int32, names []string) [][2]string {
	common := slices.Clone(s.typeAttrs(members[0], names))
	for _, m := range members[1:] {
		atts := s.typeAttrs(m, names)
		common = slices.DeleteFunc(common, func(a [2]string) bool { return !slices.Contains(atts, a) })
		if len(common) == 0 {
			break
		}
	}
	return common
}

func patternKey(parentHash uint64, tag string, atts [][2]string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strconv.FormatUint(parentHash, 16)))
	h.Write([]byte{0})
	h.Write([]byte(tag + attrPredicate(atts)))
	return h.Sum64()
}

// findLists finds the candidate record lists of a page: every group of two or more
// similar content siblings below body. It also flags the lists that are navigation
// rather than records (see navigation), and marks their tokens as noise for signifier
// acquisition.
func findLists(s *sample) {
	p := s.p
	s.lists = nil
	body := p.bodyIndex()
	if body < 0 {
		return
	}
	shapes := newShapeTable(p)
	lm := &landmarks{p: p, near: make([]int32, len(p.elems))}
	for i := body; i < int32(len(p.elems)); i++ {
		e := &p.elems[i]
		if e.skipped || e.kidEnd-e.kidStart < 2 || (i != body && !p.isAncestor(body, i)) {
			continue
		}
		for _, g := range siblingGroups(s, i, s.names, shapes) {
			l := list{parent: i, members: g}
			l.nav = navigation(p, &l, lm)
			s.lists = append(s.lists, l)
		}
	}
	// Lists whose items hold mostly navigation lists are navigation too (a footer's
	// columns of links, a mega-menu's panels, the groups of a filter panel). The lists
	// are in the order of their parents, so those whose parent is a member or below
	// it are one run of them.
	for k := range s.lists {
		l := &s.lists[k]
		if l.nav != "" {
			continue
		}
		total, covered := 0, 0
		for _, m := range l.members {
			total += p.ntoks(m)
			end := p.elems[m].end
			for j := sort.Search(len(s.lists), func(j int) bool { return s.lists[j].parent >= m }); j < len(s.lists) && s.lists[j].parent < end; j++ {
				o := &s.lists[j]
				if !navigational(o.nav) {
					continue
				}
				for _, om := range o.members {
					covered += p.ntoks(om)
				}
			}
		}
		if total > 0 && float64(covered) >= groupCoverage*float64(total) {
			l.nav = "holds navigation lists"
		}
	}
	markNoise(s)
}

// markNoise flags the tokens that tf-idf leaves out: the text of landmark regions
// (navigation, page header and footer, dialogs such as a cookie banner) is page chrome,
// as is the text of navigation lists.
func markNoise(s *sample) {
	p := s.p
	p.noise = make([]bool, len(p.toks))
	for i := int32(0); i < int32(len(p.elems)); i++ {
		if e := &p.elems[i]; !e.skipped && landmark(e.n) != "" {
			for t := e.tokStart; t < e.tokEnd; t++ {
				p.noise[t] = true
			}
			i = e.end - 1
		}
	}
	for _, l := range s.lists {
		if !navigational(l.nav) {
			continue
		}
		for _, m := range l.members {
			for t := p.elems[m].tokStart; t < p.elems[m].tokEnd; t++ {
				p.noise[t] = true
			}
		}
	}
}

// inChrome reports whether a list flagged with reason nav lies in page chrome: a
// landmark region (navigation, banner, footer, a dialog) or is made of such regions.
func inChrome(nav string) bool {
	return strings.HasPrefix(nav, "inside ") || strings.HasPrefix(nav, "<")
}

// navigational reports whether a list flagged with reason nav is navigation (links,
// filters, page chrome), as opposed to content that is not a list of records (header
// cells, labels): navigation text is left out of tf-idf and a list of items made
// mostly of navigation is navigation too. Repeated widgets count as navigation: they
// are controls (a date picker), and their text, repeated dozens of times, would
// dominate the term counts of tf-idf.
func navigational(nav string) bool {
	switch nav {
	case "", "header cells", "labels":
		return false
	}
	return true
}

// navAnchors is the reason of an anchor list.
const navAnchors = "anchor list"

// landmarkTag and landmarkRole mark page regions that hold navigation, page headers
// and footers, side content and dialogs: lists there are not records.
// (switches: they are asked of every element of a page, and a switch on a string
// costs less than a map lookup).
func landmarkTag(t string) bool {
	switch t {
	case "nav", "header", "footer", "dialog", "menu":
		return true
	}
	return false
}

func landmarkRole(r string) bool {
	switch r {
	case "navigation", "menu", "menubar", "banner", "contentinfo", "dialog", "alertdialog", "tablist":
		return true
	}
	return false
}

// navigation says why list l is navigation or otherwise no list of records, or "": a
// list inside a landmark region (header, footer, nav, a dialog, or an element with such
// an ARIA role; side regions, aside and role=complementary, are left alone: sites put
// result lists there), header cells, form options (the items of a filter), an anchor
// list, whose items are single links (the thesis filters "lists of anchors" in
// pre-processing, ch. 2 §6.3), labels, or a repeated widget. Apart from page chrome,
// the reasons are features of the list model (listfeatures.go), which weighs them.
func navigation(p *page, l *list, lm *landmarks) string {
	if a := lm.enclosing(l.parent); a >= 0 {
		return "inside " + landmark(p.elems[a].n)
	}
	if t := p.elems[l.members[0]].tag; landmarkTag(t) {
		return "<" + t + "> elements"
	}
	if p.elems[l.members[0]].tag == "th" {
		return "header cells"
	}
	controls := 0
	for _, m := range l.members {
		if hasChoiceControl(p, m) && textLeaves(p, m) <= 2 {
			controls++
		}
	}
	if controls*5 >= len(l.members)*4 {
		return "form options"
	}
	leaves, linked, toks, linkToks := 0, 0, 0, 0
	for _, m := range l.members {
		e := &p.elems[m]
		for li := e.leafStart; li < e.leafEnd; li++ {
			lf := &p.leaves[li]
			if lf.text == "" {
				continue
			}
			n := int(lf.tokEnd - lf.tokStart)
			leaves++
			toks += n
			if inLink(p, lf.elem, m) {
				linked++
				linkToks += n
			}
		}
	}
	if leaves > 0 && float64(leaves) < 1.5*float64(len(l.members)) && linkToks*10 >= toks*9 {
		return navAnchors
	}
	if labelList(p, l) {
		return "labels"
	}
	if repeatedWidget(p, l) {
		return "repeated widget"
	}
	return ""
}

// landmarks remembers, for the elements of a page, the nearest of the element and its
// ancestors that is a landmark region (landmark): the candidate lists of a page share
// most of their ancestors, so each ancestor is judged once rather than once per list.
type landmarks struct {
	p *page
	// near is 0 where not known yet, -1 where no landmark encloses the element, k+1
	// where element k is the nearest
	near []int32
	path []int32 // scratch
}

// enclosing returns the nearest of element i and its ancestors that is a landmark
// region, or -1.
func (m *landmarks) enclosing(i int32) int32 {
	path := m.path[:0]
	a := i
	for a >= 0 && m.near[a] == 0 {
		if landmark(m.p.elems[a].n) != "" {
			m.near[a] = a + 1
			break
		}
		path = append(path, a)
		a = m.p.elems[a].parent
	}
	r := int32(-1)
	if a >= 0 && m.near[a] > 0 {
		r = m.near[a] - 1
	}
	for _, x := range path {
		m.near[x] = r + 1
		if r < 0 {
			m.near[x] = -1
		}
	}
	m.path = path
	return r
}

// Bounds of the items of a repeated widget: a calendar day, a rating step.
const (
	widgetMaxLeaves = 2
	widgetMaxTokens = 6
)

// repeatedWidget reports a list of at least three small items (≤ widgetMaxLeaves text
// leaves, ≤ widgetMaxTokens tokens) of which 80 % or more repeat another item's text
// once digits are left out: the days of a calendar, the steps of a rating or a
// counter. Records with several fields may differ only by their numbers (the trains
// of a timetable, the volumes of a series) and are left alone, as are the cells of a
// table row (a table calendar is caught at its rows, whose texts are all digits).
func repeatedWidget(p *page, l *list) bool {
	if len(l.members) < 3 || p.elems[l.members[0]].tag == "td" {
		return false // equal values in the cells of a row are fields (yes, no, n/a)
	}
	noDigits := func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}
	seen := map[string]int{}
	for _, m := range l.members {
		if textLeaves(p, m) > widgetMaxLeaves || p.ntoks(m) > widgetMaxTokens {
			return false // a record with fields (a timetable row, a volume of a series)
		}
		seen[strings.Map(noDigits, p.text(m))]++
	}
	dup := 0
	for _, n := range seen {
		if n > 1 {
			dup += n
		}
	}
	return dup*5 >= len(l.members)*4
}

// labelMaxTokens bounds the text of a label: a tab, a tag, a filter chip, a menu entry.
const labelMaxTokens = 4

// labelList reports a list of labels: at least 80 % of the items carry a single short
// text (≤ labelMaxTokens tokens; repeats of it, such as the second copy a responsive
// layout keeps for small screens, count once) and no image. A record is a tuple of
// fields; an item of one short text is a label for something else.
func labelList(p *page, l *list) bool {
	labels := 0
	for _, m := range l.members {
		e := &p.elems[m]
		var text string
		distinct, img := 0, false
		for li := e.leafStart; li < e.leafEnd; li++ {
			lf := &p.leaves[li]
			switch {
			case lf.img:
				img = true
			case lf.text != "" && lf.text != text:
				if distinct == 0 || !strings.EqualFold(lf.text, text) {
					distinct++
				}
				text = lf.text
			}
		}
		if !img && distinct == 1 && len(textnorm.Tokens(text)) <= labelMaxTokens {
			labels++
		}
	}
	return labels*5 >= len(l.members)*4
}

// landmark names the page region element n is when it is one that holds navigation,
// page headers and footers or dialogs ("<nav>", "role=banner", "a modal dialog"), or
// returns "".
func landmark(n *html.Node) string {
	if landmarkTag(n.Data) {
		return "<" + n.Data + ">"
	}
	if len(n.Attr) == 0 {
		return ""
	}
	// the first role and aria-modal attributes (as attr), in one pass
	var role, modal string
	roleSeen, modalSeen := false, false
	for _, a := range n.Attr {
		switch {
		case !roleSeen && a.Key == "role":
			role, roleSeen = a.Val, true
		case !modalSeen && a.Key == "aria-modal":
			modal, modalSeen = a.Val, true
		}
	}
	if r := strings.ToLower(strings.TrimSpace(role)); landmarkRole(r) {
		return "role=" + r
	}
	if strings.EqualFold(strings.TrimSpace(modal), "true") {
		return "a modal dialog"
	}
	return ""
}

// textLeaves counts the text leaves of element m.
func textLeaves(p *page, m int32) int {
	n := 0
	for li := p.elems[m].leafStart; li < p.elems[m].leafEnd; li++ {
		if p.leaves[li].text != "" {
			n++
		}
	}
	return n
}

// headerRow reports a table row whose cells are all header cells (th): it labels the
// columns of the rows below it (HTML's table model) and is no record.
func headerRow(p *page, r int32) bool {
	cells := 0
	for _, k := range p.kids(r) {
		switch p.elems[k].tag {
		case "th":
			cells++
		case "td":
			return false
		}
	}
	return cells > 0
}

// hasChoiceControl reports whether element m holds a checkbox or radio button: the
// items of a filter (facet) list.
func hasChoiceControl(p *page, m int32) bool {
	for i := m; i < p.elems[m].end; i++ {
		if p.elems[i].tag == "input" {
			switch strings.ToLower(attr(p.elems[i].n, "type")) {
			case "checkbox", "radio":
				return true
			}
		}
	}
	return false
}

// inLink reports whether element e, up to and including record root r, is a link.
func inLink(p *page, e, r int32) bool {
	for c := e; c >= 0; c = p.elems[c].parent {
		if p.elems[c].tag == "a" {
			return true
		}
		if c == r {
			break
		}
	}
	return false
}

// recordPatterns folds the candidate lists of the sample pages into patterns.
func recordPatterns(samples []*sample, o *Options) []*pattern {
	byKey := map[uint64]*pattern{}
	var order []*pattern
	for si, s := range samples {
		p := s.p
		for _, l := range s.lists {
			l.page = si
			atts := commonAttrs(s, l.members, o.TypeAttributes)
			tag := p.elems[l.members[0]].tag
			key := patternKey(s.types[l.parent], tag, atts)
			pt := byKey[key]
			if pt == nil {
				pt = &pattern{id: len(order), key: key, parentHash: s.types[l.parent], tag: tag,
					attrs: atts, level: p.elems[l.members[0]].depth, byPage: map[int][]int32{}}
				byKey[key] = pt
				order = append(order, pt)
			}
			pt.lists = append(pt.lists, l)
			pt.byPage[si] = append(pt.byPage[si], l.members...)
		}
	}
	for _, pt := range order {
		pt.child = commonChild(samples, pt)
	}
	for _, pt := range order {
		navs := 0
		for _, l := range pt.lists {
			if l.nav != "" {
				navs++
				pt.nav = l.nav
			}
		}
		if navs*2 <= len(pt.lists) {
			pt.nav = ""
		}
	}
	markFields(samples, order)
	markGroups(samples, order)
	return order
}

// commonChild returns the tag of a child element that every element of pt has (the
// first such child of the first element): td for the rows of a table whose header row
// holds th cells. Matching requires it, so that a header row, a caption row or a
// spacer sharing the records' tag is not taken for a record.
func commonChild(samples []*sample, pt *pattern) string {
	si, e := example(pt)
	p := samples[si].p
	// the child tags of the first element, in order, kept while every element has them
	var common []string
	for _, k := range p.kids(e) {
		if t := p.elems[k].tag; !p.elems[k].skipped && !slices.Contains(common, t) {
			common = append(common, t)
		}
	}
	for sj, elems := range pt.byPage {
		q := samples[sj].p
		for _, m := range elems {
			common = slices.DeleteFunc(common, func(t string) bool {
				for _, k := range q.kids(m) {
					if q.elems[k].tag == t && !q.elems[k].skipped {
						return false
					}
				}
				return true
			})
			if len(common) == 0 {
				return ""
			}
		}
	}
	return common[0]
}

// groupCoverage is the share of its text a member must hold in inner record lists to
// be a group of records rather than a record.
const groupCoverage = 0.6

// markGroups flags the patterns whose elements are groups of records rather than
// records: elements that hold, on average, most of their text in inner candidate lists
// (not fields, not navigation) whose sizes vary from one element to the next — the
// sections of a page each listing records, the <tbody> blocks of a table. Records of
// one list share a structure but not a count of sub-items; a fixed count is a tuple of
// fields (markFields).
func markGroups(samples []*sample, pats []*pattern) {
	// inner lists per page: parent and token count, for lists of selectable patterns
	type inner struct {
		parent int32
		toks   int
		size   int
		cells  bool
	}
	byPage := map[int][]inner{}
	for _, pt := range pats {
		if pt.fields || (pt.nav != "" && pt.nav != "header cells") {
			continue
		}
		for _, l := range pt.lists {
			p := samples[l.page].p
			n := 0
			for _, m := range l.members {
				n += p.ntoks(m)
			}
			byPage[l.page] = append(byPage[l.page], inner{l.parent, n, len(l.members), pt.nav == "header cells"})
		}
	}
	for _, pt := range pats {
		if pt.fields || pt.nav != "" {
			continue
		}
		var cover float64
		members := 0
		sizes := map[int]bool{}
		for si, elems := range pt.byPage {
			p := samples[si].p
			for _, m := range elems {
				members++
				total := p.ntoks(m)
				if total == 0 {
					continue
				}
				// the outermost inner lists of m
				var in []inner
				for _, l := range byPage[si] {
					// a row's own cells are its fields, not inner records
					if l.parent == m && !l.cells || p.isAncestor(m, l.parent) {
						in = append(in, l)
					}
				}
				covered := 0
				for _, l := range in {
					outer := false
					for _, o := range in {
						if o.parent != l.parent && p.isAncestor(o.parent, l.parent) {
							outer = true
							break
						}
					}
					if !outer {
						covered += l.toks
						sizes[l.size] = true
					}
				}
				cover += min(1, float64(covered)/float64(total))
			}
		}
		// Inner lists of varying sizes, or all longer than the lists of pt itself (two
		// sections of three cards each), make pt's elements groups; inner lists of one
		// size, no longer than pt's lists, are a tuple of fields of each record.
		outer, inner := 0, 0
		for _, l := range pt.lists {
			outer = max(outer, len(l.members))
		}
		for n := range sizes {
			if inner == 0 || n < inner {
				inner = n
			}
		}
		if members > 0 && cover/float64(members) >= groupCoverage && (len(sizes) > 1 || inner > outer) {
			pt.groups = true
		}
	}
}

// markFields flags the patterns whose lists are fixed tuples inside the records of
// another pattern (the cells of table rows, the fields of a card): one list per record
// of the other pattern, of (nearly) constant size, over at least three records. Such
// siblings are the attributes of a record, not records.
func markFields(samples []*sample, pats []*pattern) {
	type ref struct {
		page int
		elem int32
	}
	owner := map[ref]int{} // list member → pattern id
	for _, pt := range pats {
		for _, l := range pt.lists {
			for _, m := range l.members {
				owner[ref{l.page, m}] = pt.id
			}
		}
	}
	for _, pt := range pats {
		if len(pt.lists) < 3 {
			continue
		}
		byOwner := map[int]int{}
		perRecord := map[ref]int{}
		sizes := map[int]int{}
		for _, l := range pt.lists {
			p := samples[l.page].p
			for a := l.parent; a >= 0; a = p.elems[a].parent {
				if id, ok := owner[ref{l.page, a}]; ok && id != pt.id {
					byOwner[id]++
					perRecord[ref{l.page, a}]++
					break
				}
			}
			sizes[len(l.members)]++
		}
		best, bestN := -1, 0
		for id, n := range byOwner {
			if n > bestN || n == bestN && id < best {
				best, bestN = id, n
			}
		}
		if best < 0 || bestN*5 < len(pt.lists)*4 {
			continue
		}
		one := 0
		for _, n := range perRecord {
			if n == 1 {
				one++
			}
		}
		mode := 0
		for _, n := range sizes {
			mode = max(mode, n)
		}
		if one*5 >= len(perRecord)*4 && mode*5 >= len(pt.lists)*4 && !recordLike(samples, pt) {
			pt.fields, pt.fieldOf = true, best
		}
	}
}

// innerRecordsMin is the least number of items of a list of records inside the records
// of another pattern.
const innerRecordsMin = 5

// cellTags are the elements of a table's or a description list's columns: their
// siblings are fields whatever their make-up.
var cellTags = map[string]bool{"td": true, "th": true, "dt": true, "dd": true}

// recordLike reports whether the lists of pt, fixed in size inside the records of
// another pattern, are lists of records rather than tuples of fields: every list has
// at least innerRecordsMin items made up alike (madeAlike) with two text leaves or
// more (a top ten of titles and scores under each heading of a page). The fields of a
// record differ from one another (a name, a price, a date); that many items made up
// alike are records.
func recordLike(samples []*sample, pt *pattern) bool {
	if cellTags[pt.tag] {
		return false
	}
	for _, l := range pt.lists {
		if len(l.members) < innerRecordsMin {
			return false
		}
		mode, ok := madeAlike(samples[l.page].p, l.members)
		if !ok || len(mode)-strings.Count(mode, "I") < 2 {
			return false
		}
	}
	return !labelledTuples(samples, pt)
}

// labelledTuples reports whether the lists of pt carry the same labels at the same
// places: at half of the positions or more, the first text of the item is the same in
// at least half of the lists (two or more). The specifications of products (weight,
// height, width, each with its value) are fields under constant labels; the entries of
// top-ten lists differ from list to list.
func labelledTuples(samples []*sample, pt *pattern) bool {
	if len(pt.lists) < 2 {
		return false
	}
	byPos := map[int]map[string]int{}
	positions := 0
	for _, l := range pt.lists {
		p := samples[l.page].p
		positions = max(positions, len(l.members))
		for k, m := range l.members {
			e := &p.elems[m]
			for li := e.leafStart; li < e.leafEnd; li++ {
				if t := p.leaves[li].text; t != "" {
					if byPos[k] == nil {
						byPos[k] = map[string]int{}
					}
					byPos[k][strings.ToLower(t)]++
					break
				}
			}
		}
	}
	need := max(2, (len(pt.lists)+1)/2)
	labelled := 0
	for _, texts := range byPos {
		for _, n := range texts {
			if n >= need {
				labelled++
				break
			}
		}
	}
	return 2*labelled >= positions
}

// rank computes I and R for every pattern (eq. 2.4 and 2.5) and sorts them by R,
// best first. In record mode I(sp, d) is J×U of the pattern's elements of page d taken
// together; in article mode it is the sum of J×U over those elements, as in the thesis.
func rank(samples []*sample, pats []*pattern, o *Options) {
	for _, pt := range pats {
		pt.perPage = map[int]counts{}
		pt.info = 0
		for si, elems := range pt.byPage {
			p := samples[si].p
			body := p.bodyIndex()
			bigX := p.nsig(body)
			bigY := p.ntoks(body) - bigX
			if bigX == 0 {
				continue
			}
			var c counts
			c.bigX, c.bigY = bigX, bigY
			var sumI float64
			for _, e := range elems {
				x := p.nsig(e)
				y := p.ntoks(e) - x
				c.x += x
				c.y += y
				sumI += Informativeness(float64(x), float64(y), float64(bigX), float64(bigY))
			}
			pt.perPage[si] = c
			if o.Mode == ModeArticle {
				pt.info += sumI
			} else {
				pt.info += Informativeness(float64(c.x), float64(c.y), float64(bigX), float64(bigY))
			}
		}
		pages := len(pt.byPage)
		pt.rel = pt.info * float64(pages) * float64(pt.level)
	}
	slices.SortStableFunc(pats, func(a, b *pattern) int {
		if c := cmp.Compare(b.rel, a.rel); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
}

// articlePatterns builds the thesis's structural patterns: every element on a
// significant terminal path, typed by Def. 2, at its level.
func articlePatterns(samples []*sample, o *Options) []*pattern {
	byKey := map[string]*pattern{}
	var order []*pattern
	for si, s := range samples {
		p := s.p
		body := p.bodyIndex()
		if body < 0 || p.sig == nil {
			continue
		}
		onPath := make([]bool, len(p.elems))
		for li := range p.leaves {
			l := &p.leaves[li]
			if s.echo[int32(li)] || p.sig[l.tokEnd] == p.sig[l.tokStart] {
				continue
			}
			for a := l.elem; a >= 0 && !onPath[a]; a = p.elems[a].parent {
				onPath[a] = true
				if a == body {
					break
				}
			}
		}
		for i := body; i < int32(len(p.elems)); i++ {
			if !onPath[i] || p.elems[i].skipped {
				continue
			}
			e := &p.elems[i]
			typ := elementType(e.n, e.dfs, o.TypeAttributes)
			k := strconv.Itoa(e.depth) + "|" + typ
			pt := byKey[k]
			if pt == nil {
				pt = &pattern{id: len(order), tag: e.tag, attrs: typeAttrs(e.n, o.TypeAttributes),
					level: e.depth, dfsType: typ, byPage: map[int][]int32{}}
				byKey[k] = pt
				order = append(order, pt)
			}
			pt.byPage[si] = append(pt.byPage[si], i)
		}
	}
	return order
}

// forestXPath is the thesis's generic wrapper for an article pattern: the element clue
// completed with its dfs positions across the pages, e.g.
// //div[@class='story' and (@dfs='78' or @dfs='82')]. It addresses the dfs-enriched
// tree of the thesis, not the raw page.
func forestXPath(samples []*sample, pt *pattern) string {
	var dfs []int
	for si, elems := range pt.byPage {
		for _, e := range elems {
			dfs = append(dfs, samples[si].p.elems[e].dfs)
		}
	}
	slices.Sort(dfs)
	dfs = slices.Compact(dfs)
	var ors []string
	for _, d := range dfs {
		ors = append(ors, "@dfs='"+strconv.Itoa(d)+"'")
	}
	cond := strings.Join(ors, " or ")
	if len(pt.attrs) == 0 {
		return "//" + pt.tag + "[" + cond + "]"
	}
	var ands []string
	for _, a := range pt.attrs {
		ands = append(ands, "contains(@"+a[0]+",'"+a[1]+"')")
	}
	if len(ors) > 1 {
		cond = "(" + cond + ")"
	}
	return "//" + pt.tag + "[" + strings.Join(ands, " and ") + " and " + cond + "]"
}
