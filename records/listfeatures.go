package records

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The features of a candidate record list (a record pattern of the sample pages),
// which the list model (listmodel.go) weighs to decide whether the pattern's elements
// are records. Every feature is a number computed from the page alone; fractions are
// over the pattern's elements (its members on the sample pages) unless said otherwise.
// A pattern present on several sample pages takes the mean of its per-page values.

// featureNames names the features in the order of a feature vector; docs/decisions
// (the list-model record) describes each.
var featureNames = []string{
	// relevance (FOREST)
	"relevance",      // R / the best R of the template (0 when no pattern has any)
	"relevance_rank", // 1 / the rank of R among the patterns with R > 0 (0 without)
	"signifier_share",
	"signifier_items",
	"jeffreys",
	"token_share",
	"log_items",
	"log_lists",
	"shape_similarity",
	"size_spread",
	"made_alike",
	"kinds",          // distinct leaf kinds (image, link, number, text) of the modal make-up, / 4
	"kinds_length",   // log(1 + leaves of the modal make-up)
	"distinct_texts", // distinct first texts / items
	"shared_first",   // items whose first text is the most common first text
	"link_items",     // items holding a link
	"distinct_links", // distinct first link targets / items
	"region_share",   // the parent's share of the page's tokens
	"log_tokens",
	"log_leaves",
	"link_share",
	"all_link",
	"image",
	"digit",
	"one_leaf",
	"short",
	"heading",
	"choice_control",
	"specificity",
	"level",
	"position",
	// landmarks
	"in_nav",
	"in_header",
	"in_footer",
	"in_dialog",
	"in_aside",
	"in_main",
	"in_form",
	"tag_li",
	"tag_tr",
	"tag_div",
	"tag_cell",
	"tag_a",
	"tag_block", // article, section
	"tag_text",  // p, h1–h6, span, and other phrasing elements
	"tag_dl",    // dt, dd
	"parent_list",
	"parent_table",
	"class",
	// the reasons of the list filters (navigation)
	"nav_landmark",
	"nav_anchors",
	"nav_options",
	"nav_labels",
	"nav_widget",
	"nav_header_cells",
	"nav_holds_nav",
	"fields",
	"groups",
	// page-relative: the value less its largest value over the page's patterns
	"rel_token_share",
	"rel_log_items",
	"rel_log_tokens",
	"rel_specificity",
	"rel_jeffreys",
	"rel_signifier_share",
	"rel_log_leaves",
	"rel_shape_similarity",
	// the list among the page's other candidate lists
	"run_tail",      // members right after a member of an earlier list of as many members
	"copied_text",   // members whose text is that of a member of another list
	"log_patterns",  // log(1 + candidate lists of the page)
	"sibling_lists", // log(1 + other lists under the same parent)
	"title_items",   // members holding a word of the page's title or h1 headings
	"href_depth",    // path segments of the members' first link targets, / 4 (at most 1)
	"href_item",     // members whose first link target names an item (a digit, a slug)
}

// relativeOf maps a page-relative feature to the feature it is relative to.
var relativeOf = map[string]string{"rel_token_share": "token_share", "rel_log_items": "log_items",
	"rel_log_tokens": "log_tokens", "rel_specificity": "specificity", "rel_jeffreys": "jeffreys",
	"rel_signifier_share": "signifier_share", "rel_log_leaves": "log_leaves",
	"rel_shape_similarity": "shape_similarity"}

// navFeature maps a navigation reason (navigation) to its feature; reasons of landmark
// regions ("inside …", "<nav> elements") map to nav_landmark.
var navFeature = map[string]string{navAnchors: "nav_anchors", "form options": "nav_options",
	"labels": "nav_labels", "repeated widget": "nav_widget", "header cells": "nav_header_cells",
	"holds navigation lists": "nav_holds_nav"}

// featureIndex maps a feature name to its position.
var featureIndex = func() map[string]int {
	m := make(map[string]int, len(featureNames))
	for i, n := range featureNames {
		m[n] = i
	}
	return m
}()

// pageContext holds what the features of the patterns of one sample page share.
type pageContext struct {
	p       *page
	body    int32
	maxDeep int
	// owner maps a list member to the pattern it belongs to (the first one).
	owner map[int32]*pattern
	// lists is the number of candidate lists of the page.
	lists int
	// byParent maps an element to the lists with a member among its children.
	byParent map[int32][]*pattern
	// hash is the hash of every member's text (textHash), for members with text;
	// byText maps such a hash to the members with that text.
	hash   map[int32]uint64
	byText map[uint64][]int32
	// title holds the words of the page's title and h1 headings, less stop words.
	title map[string]bool
}

func newPageContext(s *sample, pats []*pattern, si int) *pageContext {
	p := s.p
	members := 0
	for _, pt := range pats {
		members += len(pt.byPage[si])
	}
	// the maps sized for every member at once: no growth while they fill
	c := &pageContext{p: p, body: p.bodyIndex(), owner: make(map[int32]*pattern, members),
		byParent: map[int32][]*pattern{}, hash: make(map[int32]uint64, members),
		byText: make(map[uint64][]int32, members)}
	c.title = titleWords(p)
	for i := range p.elems {
		c.maxDeep = max(c.maxDeep, p.elems[i].depth)
	}
	for _, pt := range pats {
		if len(pt.byPage[si]) > 0 {
			c.lists++
		}
		for _, m := range pt.byPage[si] {
			par := p.elems[m].parent
			if l := c.byParent[par]; len(l) == 0 || l[len(l)-1] != pt {
				c.byParent[par] = append(l, pt)
			}
			if _, ok := c.owner[m]; !ok {
				c.owner[m] = pt
				if h, ok := textHash(p, m); ok {
					c.hash[m] = h
					c.byText[h] = append(c.byText[h], m)
				}
			}
		}
	}
	return c
}

// hrefShape returns the number of path segments of a link target and whether one of
// them names an item: it holds a digit or two hyphens (an id or a slug), as the links of
// a record to its own page do and the links of a menu to a section seldom do.
func hrefShape(href string) (int, bool) {
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	if i := strings.Index(href, "//"); i >= 0 {
		href = href[i+2:] // the host goes
		if j := strings.IndexByte(href, '/'); j >= 0 {
			href = href[j:]
		} else {
			href = ""
		}
	}
	segs, item := 0, false
	for rest := href; ; {
		s, tail, more := strings.Cut(rest, "/")
		if s != "" && s != "." && s != ".." {
			segs++
			item = item || strings.IndexFunc(s, unicode.IsDigit) >= 0 || strings.Count(s, "-") >= 2
		}
		if !more {
			break
		}
		rest = tail
	}
	return segs, item
}

// titleWords returns the words of the page's title element and of its h1 headings that
// are no stop words and longer than two letters: what the page says it is about.
func titleWords(p *page) map[string]bool {
	words := map[string]bool{}
	add := func(text string) {
		for _, t := range textnorm.Tokens(text) {
			if len(t) > 2 && !textnorm.IsStopWord(t) {
				words[t] = true
			}
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "title" {
			if n.FirstChild != nil {
				add(n.FirstChild.Data)
			}
			return
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			return
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(p.doc)
	for i := range p.elems {
		if p.elems[i].tag == "h1" {
			for k := p.elems[i].tokStart; k < p.elems[i].tokEnd; k++ {
				add(p.toks[k])
			}
		}
	}
	return words
}

// textHash returns the FNV-1a hash of the text leaves of element m, and false when m
// has no text.
func textHash(p *page, m int32) (uint64, bool) {
	h := uint64(14695981039346656037)
	any := false
	for li := p.elems[m].leafStart; li < p.elems[m].leafEnd; li++ {
		t := p.leaves[li].text
		if t == "" {
			continue
		}
		any = true
		for i := 0; i < len(t); i++ {
			h = (h ^ uint64(t[i])) * 1099511628211
		}
		h = (h ^ 0x1f) * 1099511628211 // a separator between leaves
	}
	return h, any
}

// listFeatures returns the feature vector of every pattern, in the order of pats.
// Relevance must be ranked first (rank).
func listFeatures(samples []*sample, pats []*pattern) [][]float64 {
	out := make([][]float64, len(pats))
	for i := range out {
		out[i] = make([]float64, len(featureNames))
	}
	best := 0.0
	var ranked []float64
	for _, pt := range pats {
		best = max(best, pt.rel)
		if pt.rel > 0 {
			ranked = append(ranked, pt.rel)
		}
	}
	slices.Sort(ranked)
	slices.Reverse(ranked)
	pages := make([]int, len(pats))
	for si, s := range samples {
		ctx := newPageContext(s, pats, si)
		for i, pt := range pats {
			if len(pt.byPage[si]) == 0 {
				continue
			}
			pageFeatures(ctx, pt, si, out[i])
			pages[i]++
		}
	}
	for i, pt := range pats {
		f := out[i]
		if pages[i] > 1 {
			for k := range f {
				f[k] /= float64(pages[i])
			}
		}
		switch {
		case inChrome(pt.nav):
			f[featureIndex["nav_landmark"]] = 1
		case navFeature[pt.nav] != "":
			f[featureIndex[navFeature[pt.nav]]] = 1
		}
		if pt.fields {
			f[featureIndex["fields"]] = 1
		}
		if pt.groups {
			f[featureIndex["groups"]] = 1
		}
		if best > 0 {
			f[featureIndex["relevance"]] = pt.rel / best
		}
		if pt.rel > 0 {
			r, _ := slices.BinarySearchFunc(ranked, pt.rel, func(a, b float64) int {
				switch {
				case a > b:
					return -1
				case a < b:
					return 1
				}
				return 0
			})
			f[featureIndex["relevance_rank"]] = 1 / float64(r+1)
		}
	}
	for rel, base := range relativeOf {
		b, r := featureIndex[base], featureIndex[rel]
		best := math.Inf(-1)
		for _, f := range out {
			best = max(best, f[b])
		}
		for _, f := range out {
			f[r] = f[b] - best
		}
	}
	return out
}

// pageFeatures adds the features of the candidate list pt on page si to f, group by
// group (listView).
func pageFeatures(c *pageContext, pt *pattern, si int, f []float64) {
	elems := pt.byPage[si]
	v := &listView{c: c, pt: pt, si: si, elems: elems, n: float64(len(elems)), f: f}
	v.relevance()
	v.repetition()
	v.textAndLinks()
	v.position()
	v.landmarks()
	v.tags()
	v.amongLists()
}

// listView is one candidate list on one page while its features are computed: what
// every group of features reads, and the counts one group hands to the next.
type listView struct {
	c     *pageContext
	pt    *pattern
	si    int
	elems []int32
	n     float64 // members
	f     []float64
	toks  int // tokens of the members (relevance)
}

// set adds x to the feature of the given name.
func (v *listView) set(name string, x float64) { v.f[featureIndex[name]] += x }

// frac is the share of the members that pass test.
func (v *listView) frac(test func(m int32) bool) float64 {
	k := 0
	for _, m := range v.elems {
		if test(m) {
			k++
		}
	}
	return float64(k) / v.n
}

// relevance adds the features of signifiers and the query: FOREST's relevance of the list.
func (v *listView) relevance() {
	c, p, pt, si, elems, set, frac := v.c, v.c.p, v.pt, v.si, v.elems, v.set, v.frac
	cnt := pt.perPage[si]
	if cnt.bigX > 0 {
		set("signifier_share", float64(cnt.x)/float64(cnt.bigX))
	}
	set("signifier_items", frac(func(m int32) bool { return p.nsig(m) > 0 }))
	set("jeffreys", Jeffreys(float64(cnt.x), float64(cnt.y)))
	toks := 0
	for _, m := range elems {
		toks += p.ntoks(m)
	}
	if bt := p.ntoks(c.body); bt > 0 {
		set("token_share", float64(toks)/float64(bt))
	}
	v.toks = toks
}

// repetition adds the features of repetition and regularity of the members.
func (v *listView) repetition() {
	c, p, pt, si, elems, n, set, toks := v.c, v.c.p, v.pt, v.si, v.elems, v.n, v.set, v.toks
	// repetition and regularity
	lists := 0
	for _, l := range pt.lists {
		if l.page == si {
			lists++
		}
	}
	set("log_items", math.Log(n))
	set("log_lists", math.Log(float64(max(1, lists))))
	ref := shape(p, elems[0])
	var sim float64
	k := min(len(elems), 16)
	for _, m := range elems[1:k] {
		sim += similarity(ref, shape(p, m))
	}
	if k > 1 {
		set("shape_similarity", sim/float64(k-1))
	}
	mean := float64(toks) / n
	var sq float64
	for _, m := range elems {
		d := float64(p.ntoks(m)) - mean
		sq += d * d
	}
	if mean > 0 {
		set("size_spread", min(3, math.Sqrt(sq/n)/mean))
	}
	// the members' sequences of leaf kinds, counted without a string per member: a
	// sequence gets a string only when first seen
	kindIndex := map[string]int{}
	var kindNames []string
	var kindCounts []int
	var kb []byte
	modal := 0
	for _, m := range elems {
		kb = appendLeafKinds(kb[:0], p, m)
		i, ok := kindIndex[string(kb)]
		if !ok {
			i = len(kindNames)
			kindNames = append(kindNames, string(kb))
			kindIndex[kindNames[i]] = i
			kindCounts = append(kindCounts, 0)
		}
		kindCounts[i]++
		modal = max(modal, kindCounts[i])
	}
	set("made_alike", float64(modal)/n)
	mode := ""
	for i, k := range kindNames {
		if kindCounts[i] == modal && (mode == "" || k < mode) {
			mode = k
		}
	}
	distinct := 0
	for _, r := range "ILNT" {
		if strings.ContainsRune(mode, r) {
			distinct++
		}
	}
	set("kinds", float64(distinct)/4)
	set("kinds_length", math.Log1p(float64(len(mode))))
	firsts, links := map[string]int{}, map[string]bool{}
	linked, hrefDepth, hrefItem := 0, 0, 0
	for _, m := range elems {
		if lf := firstLeaf(p, m); lf != nil {
			firsts[strings.ToLower(lf.text)]++
		}
		if a := firstLink(p, m); a != nil {
			linked++
			href := attr(a, "href")
			links[href] = true
			d, item := hrefShape(href)
			hrefDepth += d
			if item {
				hrefItem++
			}
		}
	}
	common := 0
	for _, c := range firsts {
		common = max(common, c)
	}
	set("distinct_texts", float64(len(firsts))/n)
	set("shared_first", float64(common)/n)
	set("link_items", float64(linked)/n)
	set("distinct_links", float64(len(links))/n)
	if linked > 0 {
		set("href_depth", min(1, float64(hrefDepth)/float64(linked)/4))
	}
	set("href_item", float64(hrefItem)/n)
	if bt := p.ntoks(c.body); bt > 0 {
		set("region_share", float64(p.ntoks(p.elems[elems[0]].parent))/float64(bt))
	}
}

// textAndLinks adds the features of text and links of the members.
func (v *listView) textAndLinks() {
	p, elems, n, set, frac, toks, mean := v.c.p, v.elems, v.n, v.set, v.frac, v.toks, float64(v.toks)/v.n
	// text and links
	set("log_tokens", math.Log1p(mean))
	leaves, linkToks, allLink, img, digit, one, short, heading := 0, 0, 0, 0, 0, 0, 0, 0
	for _, m := range elems {
		e := &p.elems[m]
		tl, lt, hasImg, digits := 0, 0, false, false
		for li := e.leafStart; li < e.leafEnd; li++ {
			lf := &p.leaves[li]
			if lf.text == "" {
				hasImg = hasImg || lf.img
				continue
			}
			tl++
			if inLink(p, lf.elem, m) {
				lt += int(lf.tokEnd - lf.tokStart)
			}
			digits = digits || hasDigit(lf.text)
		}
		leaves += tl
		linkToks += lt
		if lt > 0 && lt == p.ntoks(m) {
			allLink++
		}
		if hasImg {
			img++
		}
		if digits {
			digit++
		}
		if tl == 1 {
			one++
		}
		if p.ntoks(m) <= 4 {
			short++
		}
		if holdsHeading(p, m) {
			heading++
		}
	}
	set("log_leaves", math.Log1p(float64(leaves)/n))
	if toks > 0 {
		set("link_share", float64(linkToks)/float64(toks))
	}
	set("all_link", float64(allLink)/n)
	set("image", float64(img)/n)
	set("digit", float64(digit)/n)
	set("one_leaf", float64(one)/n)
	set("short", float64(short)/n)
	set("heading", float64(heading)/n)
	set("choice_control", frac(func(m int32) bool { return hasChoiceControl(p, m) }))
	var spec float64
	specN := 0
	for _, m := range elems {
		s, k := p.specificity(m)
		spec += s
		specN += k
	}
	if specN > 0 {
		set("specificity", spec/float64(specN))
	}
}

// position adds the features of depth and position of the list in the page.
func (v *listView) position() {
	c, p, elems, set := v.c, v.c.p, v.elems, v.set
	// depth and position
	first := &p.elems[elems[0]]
	if c.maxDeep > 0 {
		set("level", float64(first.depth)/float64(c.maxDeep))
	}
	if len(p.elems) > 0 {
		set("position", float64(elems[0])/float64(len(p.elems)))
	}
}

// landmarks adds the features of landmarks around the list.
func (v *listView) landmarks() {
	p, set, first := v.c.p, v.set, &v.c.p.elems[v.elems[0]]
	// landmarks: the members' parent and its ancestors, or the members themselves
	var nav, header, footer, dialog, aside, main, form bool
	mark := func(n *html.Node) {
		role := strings.ToLower(strings.TrimSpace(attr(n, "role")))
		switch {
		case n.Data == "nav" || n.Data == "menu" || role == "navigation" || role == "menu" || role == "menubar" || role == "tablist":
			nav = true
		case n.Data == "header" || role == "banner":
			header = true
		case n.Data == "footer" || role == "contentinfo":
			footer = true
		case n.Data == "dialog" || role == "dialog" || role == "alertdialog" || strings.EqualFold(strings.TrimSpace(attr(n, "aria-modal")), "true"):
			dialog = true
		case n.Data == "aside" || role == "complementary":
			aside = true
		case n.Data == "main" || n.Data == "article" || role == "main":
			main = true
		case n.Data == "form":
			form = true
		}
	}
	mark(first.n)
	for a := first.parent; a >= 0; a = p.elems[a].parent {
		mark(p.elems[a].n)
	}
	for name, b := range map[string]bool{"in_nav": nav, "in_header": header, "in_footer": footer, "in_dialog": dialog, "in_aside": aside, "in_main": main, "in_form": form} {
		if b {
			set(name, 1)
		}
	}
}

// tags adds the features of tags of the members and their parent.
func (v *listView) tags() {
	p, pt, set, first := v.c.p, v.pt, v.set, &v.c.p.elems[v.elems[0]]
	// tags
	switch first.tag {
	case "li":
		set("tag_li", 1)
	case "tr":
		set("tag_tr", 1)
	case "div":
		set("tag_div", 1)
	case "td", "th":
		set("tag_cell", 1)
	case "a":
		set("tag_a", 1)
	case "article", "section":
		set("tag_block", 1)
	case "dt", "dd":
		set("tag_dl", 1)
	default:
		if !layoutTags[first.tag] {
			set("tag_text", 1)
		}
	}
	if first.parent >= 0 {
		switch p.elems[first.parent].tag {
		case "ul", "ol", "menu", "dl":
			set("parent_list", 1)
		case "tbody", "table", "thead", "tfoot":
			set("parent_table", 1)
		}
	}
	if len(pt.attrs) > 0 {
		set("class", 1)
	}
}

// amongLists adds the features of the list among the page's other lists.
func (v *listView) amongLists() {
	c, p, pt, si, elems, n, set, frac, first := v.c, v.c.p, v.pt, v.si, v.elems, v.n, v.set, v.frac, &v.c.p.elems[v.elems[0]]
	// the list among the page's other lists
	set("log_patterns", math.Log1p(float64(c.lists)))
	set("sibling_lists", math.Log1p(float64(len(c.byParent[first.parent])-1)))
	tail, copied := 0, 0
	for _, m := range elems {
		if p.elems[m].parent < 0 {
			continue
		}
		kids := p.kids(p.elems[m].parent)
		if k, ok := slices.BinarySearch(kids, m); ok && k > 0 {
			o := c.owner[kids[k-1]]
			if o != nil && o != pt {
				if on := len(o.byPage[si]); on >= len(elems)-1 && on <= len(elems)+1 && o.byPage[si][0] < elems[0] {
					tail++
				}
			}
		}
		if h, ok := c.hash[m]; ok {
			for _, d := range c.byText[h] {
				if d != m && c.owner[d] != pt && !p.isAncestor(d, m) && !p.isAncestor(m, d) {
					copied++
					break
				}
			}
		}
	}
	if len(c.title) > 0 {
		set("title_items", frac(func(m int32) bool {
			for k := p.elems[m].tokStart; k < p.elems[m].tokEnd; k++ {
				if c.title[p.toks[k]] {
					return true
				}
			}
			return false
		}))
	}
	set("run_tail", float64(tail)/n)
	set("copied_text", float64(copied)/n)
}

// firstLink returns the first link (a with href) in element m, or nil.
func firstLink(p *page, m int32) *html.Node {
	for i := m; i < p.elems[m].end; i++ {
		if p.elems[i].tag == "a" {
			if n := p.elems[i].n; attr(n, "href") != "" {
				return n
			}
		}
	}
	return nil
}

// layoutTags are elements that are blocks of a layout rather than phrasing content.
var layoutTags = map[string]bool{"div": true, "li": true, "tr": true, "td": true, "th": true,
	"article": true, "section": true, "ul": true, "ol": true, "table": true, "tbody": true,
	"form": true, "fieldset": true, "figure": true, "main": true, "aside": true, "nav": true,
	"header": true, "footer": true, "dl": true, "dt": true, "dd": true, "details": true,
	"blockquote": true, "address": true, "a": true}

// holdsHeading reports whether element m is or holds a heading (h1–h6).
func holdsHeading(p *page, m int32) bool {
	for i := m; i < p.elems[m].end; i++ {
		switch p.elems[i].tag {
		case "h1", "h2", "h3", "h4", "h5", "h6":
			return true
		}
	}
	return false
}

// firstLeaf returns the first text leaf of element m, or nil.
func firstLeaf(p *page, m int32) *leaf {
	e := &p.elems[m]
	for li := e.leafStart; li < e.leafEnd; li++ {
		if lf := &p.leaves[li]; lf.text != "" {
			return lf
		}
	}
	return nil
}
