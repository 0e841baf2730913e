package records

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// The policy ceiling of the NEXT-EVAL sample and training set.
//
// Two rules of the project bound what record mode can score on NEXT-EVAL with the
// benchmark's own measure (benchScore): a record is emitted once, and page chrome
// (navigation, the page's banner and footer, pagination) is not a record (issue 5,
// point 3). The sample's ground truth breaks both on some pages: it lists a wrapper
// element and its only child as two records, and it annotates menus, header drop-downs
// and footers on some pages and not on others. TestNextEvalPolicyCeiling measures the
// best mean F1 an extractor that keeps both rules can reach (the policy oracle), and the
// evidence that the annotation is inconsistent about chrome (the chrome link lists it
// leaves out, and the opposite oracle that takes them).

// chromeRoles are the ARIA roles of page chrome: navigation and its menus, the page's
// banner and its content information (footer).
var chromeRoles = map[string]bool{"navigation": true, "menu": true, "menubar": true, "banner": true, "contentinfo": true}

// sectioningScope lists the elements and roles that keep a header or footer from being
// the page's banner or contentinfo (HTML-AAM: header and footer map to banner and
// contentinfo only when they are not descendants of article, aside, main, nav or
// section, or of an element with role article, complementary, main, navigation or
// region; otherwise they are generic).
var (
	sectioningTags  = map[atom.Atom]bool{atom.Article: true, atom.Aside: true, atom.Main: true, atom.Nav: true, atom.Section: true}
	sectioningRoles = map[string]bool{"article": true, "complementary": true, "main": true, "navigation": true, "region": true}
)

// explicitRole is the first token of n's role attribute, lower-cased ("" if none).
func explicitRole(n *html.Node) string {
	if f := strings.Fields(strings.ToLower(attr(n, "role"))); len(f) > 0 {
		return f[0]
	}
	return ""
}

// chromeRole returns the chrome role element n has, or "": an explicit role among
// chromeRoles; a nav element (navigation); a header (banner) or footer (contentinfo)
// that is not inside a sectioning element or role (see sectioningTags). An explicit
// role that is not a chrome role does not remove the implicit one: the rule asks what
// the page's author marked as chrome, and <header role="none"> does not occur in the
// sample.
func chromeRole(n *html.Node) string {
	if n.Type != html.ElementNode {
		return ""
	}
	if r := explicitRole(n); chromeRoles[r] {
		return r
	}
	switch n.DataAtom {
	case atom.Nav:
		return "navigation"
	case atom.Header, atom.Footer:
		for a := n.Parent; a != nil; a = a.Parent {
			if a.Type == html.ElementNode && (sectioningTags[a.DataAtom] || sectioningRoles[explicitRole(a)]) {
				return ""
			}
		}
		if n.DataAtom == atom.Header {
			return "banner"
		}
		return "contentinfo"
	}
	return ""
}

// textOf joins the text nodes of set in document order.
func textOf(set map[*html.Node]bool, order map[*html.Node]int) string {
	nodes := make([]*html.Node, 0, len(set))
	for n := range set {
		nodes = append(nodes, n)
	}
	slices.SortFunc(nodes, func(a, b *html.Node) int { return order[a] - order[b] })
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = strings.TrimSpace(n.Data)
	}
	return strings.Join(parts, " ")
}

// docOrder numbers the nodes of doc in document order.
func docOrder(doc *html.Node) map[*html.Node]int {
	order := map[*html.Node]int{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		order[n] = len(order)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return order
}

// depth is the number of ancestors of n.
func depth(n *html.Node) int {
	d := 0
	for a := n.Parent; a != nil; a = a.Parent {
		d++
	}
	return d
}

// truthPage is one page of the sample resolved: the parsed document, the elements and
// the text-node sets of the true records, and document order.
type truthPage struct {
	doc   *html.Node
	elems [][]*html.Node
	sets  []map[*html.Node]bool
	order map[*html.Node]int
}

func resolveTruth(p benchmark.Page) (*truthPage, error) {
	doc, err := html.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return nil, err
	}
	sets, err := resolveRecords(doc, p.Truth)
	if err != nil {
		return nil, err
	}
	elems := make([][]*html.Node, len(p.Truth))
	for i, r := range p.Truth {
		for _, xp := range r {
			n, err := htmlquery.Query(doc, xp) // resolveRecords has checked it selects a node
			if err != nil {
				return nil, err
			}
			elems[i] = append(elems[i], n)
		}
	}
	return &truthPage{doc: doc, elems: elems, sets: sets, order: docOrder(doc)}, nil
}

// duplicates marks every true record whose text-node set equals that of another,
// outer, true record: of each group of records with the same non-empty set, the
// outermost one (the least sum of its elements' depths, then the first listed) is kept,
// the others are marked. Records without text are never duplicates of each other.
func (tp *truthPage) duplicates() []bool {
	key := func(s map[*html.Node]bool) string {
		idx := make([]int, 0, len(s))
		for n := range s {
			idx = append(idx, tp.order[n])
		}
		slices.Sort(idx)
		var b strings.Builder
		for _, k := range idx {
			b.WriteString(strconv.Itoa(k))
			b.WriteByte(',')
		}
		return b.String()
	}
	top := func(i int) int { // the lower, the outer
		d := 0
		for _, n := range tp.elems[i] {
			d += depth(n)
		}
		return d
	}
	groups := map[string][]int{}
	for i, s := range tp.sets {
		if len(s) > 0 {
			k := key(s)
			groups[k] = append(groups[k], i)
		}
	}
	dup := make([]bool, len(tp.sets))
	for _, g := range groups {
		keep := g[0]
		for _, i := range g[1:] {
			if top(i) < top(keep) {
				keep = i
			}
		}
		for _, i := range g {
			dup[i] = i != keep
		}
	}
	return dup
}

// chrome names, for every true record that is page chrome, why ("" for the others):
// the chrome role of the outermost chrome element around it ("navigation", "banner",
// …) when all its elements are, or are inside, an element with a chrome role
// (chromeRole); "pager" when it is an item of a pager: its text is a pager text
// (pagerText) and another true record with the same parent element has a pager text too
// (a lone number elsewhere is a value, not a pager).
func (tp *truthPage) chrome() []string {
	out := make([]string, len(tp.elems))
	pagerByParent := map[*html.Node]int{}
	pager := make([]bool, len(tp.elems))
	for i, es := range tp.elems {
		role := ""
		for _, n := range es {
			r := ""
			for a := n; a != nil; a = a.Parent {
				if cr := chromeRole(a); cr != "" {
					r = cr
				}
			}
			if r == "" {
				role = ""
				break
			}
			if role == "" {
				role = r
			}
		}
		out[i] = role
		if len(es) == 1 && pagerText(textOf(tp.sets[i], tp.order)) {
			pager[i] = true
			pagerByParent[es[0].Parent]++
		}
	}
	for i := range out {
		if out[i] == "" && pager[i] && pagerByParent[tp.elems[i][0].Parent] >= 2 {
			out[i] = "pager"
		}
	}
	return out
}

// chromeList is a list of links in page chrome: a ul, ol or menu element inside a
// chrome element with at least three li children that hold a link, or, when a chrome
// element holds no such list, the chrome element itself if it holds at least three
// links. Its items are those li children, or those links.
type chromeList struct {
	root      *html.Node
	items     []*html.Node
	annotated bool // a text node of one of its links belongs to a true record
}

// linkMin is the least number of links of a chrome link list.
const linkMin = 3

func isLink(n *html.Node) bool {
	return n.Type == html.ElementNode && n.DataAtom == atom.A && attr(n, "href") != ""
}

func hasLink(n *html.Node) bool {
	if isLink(n) {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasLink(c) {
			return true
		}
	}
	return false
}

func links(n *html.Node, into []*html.Node) []*html.Node {
	if isLink(n) {
		return append(into, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		into = links(c, into)
	}
	return into
}

// chromeLists finds the chrome link lists of a page, in document order. The chrome
// elements are those of the rule: nav, role=navigation, and the header and
// footer that are the page's banner and contentinfo (explicit roles banner and
// contentinfo included); menus (role menu, menubar) are lists inside them.
func (tp *truthPage) chromeLists() []*chromeList {
	truthText := map[*html.Node]bool{}
	for _, s := range tp.sets {
		for n := range s {
			truthText[n] = true
		}
	}
	var out []*chromeList
	add := func(root *html.Node, items []*html.Node) {
		cl := &chromeList{root: root, items: items}
		for _, a := range links(root, nil) {
			for n := range textNodes([]*html.Node{a}) {
				cl.annotated = cl.annotated || truthText[n]
			}
		}
		out = append(out, cl)
	}
	var lists func(n *html.Node, found *bool)
	lists = func(n *html.Node, found *bool) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Ul || n.DataAtom == atom.Ol || n.DataAtom == atom.Menu) {
			var items []*html.Node
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.DataAtom == atom.Li && hasLink(c) {
					items = append(items, c)
				}
			}
			if len(items) >= linkMin {
				add(n, items)
				*found = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			lists(c, found)
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if r := chromeRole(n); r == "navigation" || r == "banner" || r == "contentinfo" {
			found := false
			lists(n, &found)
			if ls := links(n, nil); !found && len(ls) >= linkMin {
				add(n, ls)
			}
			return // lists of inner chrome elements are found from the outermost
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(tp.doc)
	return out
}

// inside reports whether n is a proper descendant of a.
func inside(n, a *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

// ceilingRow is the outcome of one page.
type ceilingRow struct {
	n, truth, dup, chrome int
	chromeAll             int // true records in chrome, copies included
	policy                benchmark.PRF
	why                   map[string]int // chrome exclusions by chrome role or "pager"
	lists, annotated      int            // chrome link lists, of which annotated
	added                 int            // records the opposite oracle adds
	opposite              benchmark.PRF
}

// TestNextEvalPolicyCeiling measures, with the benchmark's own measure (benchScore),
// the best mean F1 an extractor that keeps the project's record policy can reach on
// the NEXT-EVAL sample, and shows how inconsistently the sample annotates page chrome.
//
// Policy oracle: for each page it predicts the true records themselves, less
//
//  1. duplicates: every true record whose text-node set (textNodes over its XPaths)
//     equals that of another true record, except the outermost of them (the least sum
//     of its elements' depths, then the first listed). The project
//     never emits the same record twice; the sample lists some wrappers together with
//     their only child.
//  2. chrome: every true record all of whose elements are, or are inside, page chrome:
//     a nav element; a header or footer that is the page's banner or contentinfo by the
//     HTML-AAM scoping (not inside article, aside, main, nav, section, nor an element
//     with role article, complementary, main, navigation or region); an element with
//     role navigation, menu, menubar, banner or contentinfo. Pager items are chrome
//     too: a true record whose whole text is one page number, a next/previous-like
//     word or only arrows and ellipses, when another true record with the same parent
//     element is one as well. Issue 5, point 3: navigation, headers, footers and
//     pagination are not records.
//
// The prediction is scored against the full truth. Since it is a subset of the truth,
// every predicted record matches itself: P = 1 and R = kept / true on every page, and
// F1 = 1 where nothing is excluded. The test asserts exactly that, so a broken
// resolution of the truth, a broken rule (one that drops a record that is not a copy)
// or a broken measure fails it.
//
// Inconsistency: for each page it lists the chrome link lists (chromeList: a ul, ol or
// menu with at least three linked li items inside nav, role=navigation, or a
// banner/contentinfo header or footer; or such an element with three links and no
// list) and says whether the truth annotates each (a text node of one of its links
// belongs to a true record). The opposite oracle predicts the truth less duplicates
// plus one record per item of every chrome link list the truth does not annotate
// (outermost lists only, items with text only): what an extractor that takes every
// menu would add. Run with -v to see the tables:
//
//	go test ./records -run TestNextEvalPolicyCeiling -v
func TestNextEvalPolicyCeiling(t *testing.T) {
	pages := append(loadNextEvalSet(t, "next-eval-sample"), loadNextEvalSet(t, "next-eval-train")...)
	rows := make([]ceilingRow, 0, len(pages))
	for _, p := range pages {
		if !p.Scorable() {
			continue
		}
		tp, err := resolveTruth(p)
		if err != nil {
			t.Fatalf("page %d: %v", p.N, err)
		}
		dup, chrome := tp.duplicates(), tp.chrome()
		row := ceilingRow{n: p.N, truth: len(p.Truth), why: map[string]int{}}
		var policy, opposite, copies [][]string
		for i, r := range p.Truth {
			switch {
			case dup[i]:
				row.dup++
				copies = append(copies, r)
			case chrome[i] != "":
				row.chrome++
				row.why[chrome[i]]++
			default:
				policy = append(policy, r)
			}
			if !dup[i] {
				opposite = append(opposite, r)
			}
			if chrome[i] != "" {
				row.chromeAll++
			}
		}
		row.policy = benchmark.Score(tp.doc, policy, p.Truth)
		// A check of the duplicate rule in the benchmark's own units (elements holding
		// text, not text nodes): every excluded copy equals a distinct kept record, so
		// the copies scored against the records kept as originals have P = 1.
		if len(copies) > 0 {
			if c := benchmark.Score(tp.doc, copies, opposite); c.P != 1 {
				t.Errorf("page %d: the %d excluded copies against the kept records score %v, want P=1", p.N, len(copies), c)
			}
		}

		cls := tp.chromeLists()
		var taken []*html.Node // roots of the unannotated lists whose items are added
		for _, cl := range cls {
			row.lists++
			if cl.annotated {
				row.annotated++
				continue
			}
			if slices.ContainsFunc(taken, func(a *html.Node) bool { return inside(cl.root, a) }) {
				continue
			}
			taken = append(taken, cl.root)
			for _, it := range cl.items {
				if len(textNodes([]*html.Node{it})) > 0 {
					opposite = append(opposite, []string{absXPath(it)})
					row.added++
				}
			}
		}
		row.opposite = benchmark.Score(tp.doc, opposite, p.Truth)
		rows = append(rows, row)
	}

	var tbl strings.Builder
	fmt.Fprintf(&tbl, "%5s %6s %5s %6s  %-26s  %5s %5s %5s  %-26s\n", "page", "true", "dup", "chrome", "policy oracle", "lists", "annot", "added", "opposite oracle")
	var sumP, sumO, sumDup, sumChrome float64 // sumDup, sumChrome: one rule alone (F1 of kept/true, as asserted below)
	var half [2]float64                       // the sample (n % 4 == 1) and the training set
	var halfN [2]int
	withLists, annotatedPages, unannotatedPages, bothPages := 0, 0, 0, 0
	chromeTruth, listsNoChromeTruth := 0, 0 // pages with true records in chrome; pages with chrome link lists and none
	for _, r := range rows {
		fmt.Fprintf(&tbl, "%5d %6d %5d %6d  %-26s  %5d %5d %5d  %-26s\n", r.n, r.truth, r.dup, r.chrome, r.policy, r.lists, r.annotated, r.added, r.opposite)
		sumP += r.policy.F
		sumO += r.opposite.F
		sumDup += benchmark.NewPRF(float64(r.truth-r.dup), r.truth-r.dup, r.truth).F
		sumChrome += benchmark.NewPRF(float64(r.truth-r.chromeAll), r.truth-r.chromeAll, r.truth).F
		h := 1
		if r.n%4 == 1 {
			h = 0
		}
		half[h] += r.policy.F
		halfN[h]++
		if r.lists > 0 {
			withLists++
		}
		if r.annotated > 0 {
			annotatedPages++
		}
		if r.annotated < r.lists {
			unannotatedPages++
		}
		if r.annotated > 0 && r.annotated < r.lists {
			bothPages++
		}
		if r.chrome > 0 {
			chromeTruth++
		} else if r.lists > 0 {
			listsNoChromeTruth++
		}
	}
	n := float64(len(rows))
	ceiling := sumP / n
	fmt.Fprintf(&tbl, "policy ceiling, mean F1 over %d pages: %.4f\n", len(rows), ceiling)
	for h, name := range []string{"the sample (n % 4 == 1)", "the training set"} {
		fmt.Fprintf(&tbl, "%s (%d pages): %.4f\n", name, halfN[h], half[h]/float64(halfN[h]))
	}
	fmt.Fprintf(&tbl, "one rule alone: duplicates %.4f, chrome %.4f\n", sumDup/n, sumChrome/n)
	fmt.Fprintf(&tbl, "pages losing more than 0.01 F1 under the policy:")
	for _, r := range rows {
		if r.policy.F < 0.99 {
			fmt.Fprintf(&tbl, " %d (%.3f: %d dup, %d chrome %v)", r.n, r.policy.F, r.dup, r.chrome, r.why)
		}
	}
	fmt.Fprintf(&tbl, "\npages with chrome link lists: %d; the truth annotates some on %d, leaves some out on %d (both on %d), annotates none on %d\n",
		withLists, annotatedPages, unannotatedPages, bothPages, withLists-annotatedPages)
	fmt.Fprintf(&tbl, "pages with true records in chrome: %d; pages with chrome link lists and no true record in chrome: %d\n", chromeTruth, listsNoChromeTruth)
	fmt.Fprintf(&tbl, "opposite oracle (truth less duplicates, plus every unannotated chrome link list), mean F1: %.4f\n", sumO/n)
	status := "reachable"
	if ceiling < nextEvalTarget {
		status = "NOT reachable"
	}
	fmt.Fprintf(&tbl, "issue 13 target mean F1 ≥ %.2f under the policy: %s\n", nextEvalTarget, status)
	t.Log("\n" + tbl.String())

	// The oracle predicts a subset of the truth: each kept record matches itself.
	const eps = 1e-9
	clean := 0
	for _, r := range rows {
		kept := r.truth - r.dup - r.chrome
		want := benchmark.NewPRF(float64(kept), kept, r.truth)
		if math.Abs(r.policy.P-want.P) > eps || math.Abs(r.policy.R-want.R) > eps || math.Abs(r.policy.F-want.F) > eps {
			t.Errorf("page %d: policy oracle scores %v, want %v (%d of %d true records kept)", r.n, r.policy, want, kept, r.truth)
		}
		if kept == r.truth {
			clean++
			if r.policy.F != 1 {
				t.Errorf("page %d: nothing excluded but F1 %.6f", r.n, r.policy.F)
			}
		}
		if r.opposite.P > 1+eps || r.opposite.R > 1+eps {
			t.Errorf("page %d: opposite oracle scores %v", r.n, r.opposite)
		}
		if r.added == 0 && math.Abs(r.opposite.R-float64(r.truth-r.dup)/float64(r.truth)) > eps {
			t.Errorf("page %d: opposite oracle adds nothing but scores %v", r.n, r.opposite)
		}
	}
	for _, r := range rows {
		// Both parts use chromeRole: a chrome link list whose links the truth annotates
		// puts those links in true records, which lie in chrome on the sample's pages
		// (no true record there spans chrome and content).
		if r.annotated > 0 && r.chrome == 0 {
			t.Errorf("page %d: the truth annotates %d chrome link lists but no true record lies in chrome", r.n, r.annotated)
		}
	}
	if withLists == 0 {
		t.Errorf("no page has a chrome link list; the list rule found nothing")
	}
	if clean == 0 || clean == len(rows) {
		t.Errorf("%d of %d pages lose nothing under the policy; the rules found nothing or everything", clean, len(rows))
	}
	// Sanity check from the issue: on 81, 85 and 105 every record is annotated twice (a
	// wrapper and its only child), so exactly half are duplicates and nothing else is
	// excluded, F1 2/3. If duplicates are not found there, the rule is broken.
	for _, r := range rows {
		if (r.n == 81 || r.n == 85 || r.n == 105) && (2*r.dup != r.truth || r.chrome != 0 || math.Abs(r.policy.F-2.0/3) > eps) {
			t.Errorf("page %d: %d true, %d duplicates, %d chrome, F1 %.4f; want every record annotated twice, F1 2/3", r.n, r.truth, r.dup, r.chrome, r.policy.F)
		}
	}
}

// TestPolicyChromeRules checks the chrome and pager rules of the policy oracle on small
// pages: the HTML-AAM scoping of header and footer, explicit roles, and pager texts.
func TestPolicyChromeRules(t *testing.T) {
	page := `<html><body>
<header id="h1"><ul><li><a href="/a">A</a></li></ul></header>
<main><article><header id="h2">Title</header><footer id="f2">Posted</footer></article></main>
<div role="region"><footer id="f3">x</footer></div>
<div role="main"><header id="h4">y</header></div>
<section><nav id="n1"><a href="/1">1</a></nav></section>
<div id="d1" role="Menubar other">m</div>
<div id="d2" role="list">l</div>
<footer id="f1">(c)</footer>
</body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	roles := []struct{ id, want string }{
		{"h1", "banner"},     // header of the page
		{"h2", ""},           // header of an article
		{"f2", ""},           // footer of an article
		{"f3", ""},           // footer inside role=region
		{"h4", ""},           // header inside role=main
		{"n1", "navigation"}, // nav, wherever it is
		{"d1", "menubar"},    // explicit role, first token, case folded
		{"d2", ""},           // a role that is not chrome
		{"f1", "contentinfo"},
	}
	for _, tc := range roles {
		t.Run("role "+tc.id, func(t *testing.T) {
			n, err := htmlquery.Query(doc, `//*[@id="`+tc.id+`"]`)
			if err != nil || n == nil {
				t.Fatalf("no element %s: %v", tc.id, err)
			}
			if got := chromeRole(n); got != tc.want {
				t.Errorf("chromeRole(%s) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
	texts := []struct {
		text string
		want bool
	}{
		{"12", true},
		{" Next ", true},
		{"Previous page", true},
		{"»", true},
		{"… ›", true},
		{"2023 42", false}, // a table row of two values
		{"Page 2 of 9", false},
		{"Next-generation phones", false},
		{"", false},
	}
	for _, tc := range texts {
		t.Run("pager "+tc.text, func(t *testing.T) {
			if got := pagerText(tc.text); got != tc.want {
				t.Errorf("pagerText(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}
