package records

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The article model. An article page is cut into text units: the maximal runs of text
// between two block boundaries (the paragraphs a reader sees). Each unit knows the
// element that owns it (its nearest block-level ancestor), its words, the words inside
// links, and whether a boilerplate element (navigation, a share bar, a caption) holds it.
// Every element then sums the units below it, which is what the block choice ranks.

// articleBlockTags are the elements that end a text unit.
var articleBlockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Pre: true,
	atom.Td: true, atom.Th: true, atom.Tr: true, atom.Table: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Section: true, atom.Article: true,
	atom.Main: true, atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true,
	atom.Figure: true, atom.Figcaption: true, atom.Form: true, atom.Address: true,
	atom.Center: true, atom.Hr: true, atom.Body: true, atom.Caption: true, atom.Details: true,
	atom.Summary: true, atom.Fieldset: true, atom.Legend: true, atom.Dialog: true,
}

// boilerTags are elements whose text is never the article's body: navigation, side
// content, the page's and the article's header and footer, forms, captions.
var boilerTags = map[atom.Atom]bool{
	atom.Nav: true, atom.Aside: true, atom.Footer: true, atom.Header: true, atom.Form: true,
	atom.Button: true, atom.Figure: true, atom.Figcaption: true, atom.Label: true,
	atom.Dialog: true, atom.Menu: true, atom.Address: true, atom.Time: true,
}

// boilerWords are the words of class and id values that name boilerplate: sharing and
// social bars, related and recommended stories, comments, newsletters and ads, bylines
// and meta lines, captions, navigation. An element so named is boilerplate unless it
// holds most of the page's body text (a page-wide wrapper named "has-sidebar").
var boilerWords = map[string]bool{
	"share": true, "sharing": true, "shares": true, "social": true, "related": true,
	"comment": true, "comments": true, "newsletter": true, "subscribe": true,
	"subscription": true, "promo": true, "advert": true, "advertisement": true, "ad": true,
	"ads": true, "sponsor": true, "sponsored": true, "sidebar": true, "breadcrumb": true,
	"breadcrumbs": true, "nav": true, "navigation": true, "menu": true, "footer": true,
	"header": true, "byline": true, "author": true, "meta": true, "tags": true,
	"caption": true, "credit": true, "credits": true, "popular": true, "recommended": true,
	"recommendations": true, "outbrain": true, "taboola": true, "signup": true, "modal": true,
	"popup": true, "cookie": true, "cookies": true, "toolbar": true, "masthead": true,
	"widget": true, "disclaimer": true, "trending": true, "more": true, "next": true,
	"prev": true, "pagination": true, "hidden": true, "print": true, "dateline": true,
	"timestamp": true, "date": true, "tooltip": true, "banner": true, "embed": true,
}

// classWords splits class and id values into lower-case words at every character that
// is not a letter and at lower-to-upper case changes ("articleBody" → "article",
// "body").
func classWords(n *html.Node) []string {
	var out []string
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		var cur []rune
		flush := func() {
			if len(cur) > 0 {
				out = append(out, strings.ToLower(string(cur)))
				cur = cur[:0]
			}
		}
		prevLower := false
		for _, r := range a.Val {
			switch {
			case unicode.IsLetter(r):
				if unicode.IsUpper(r) && prevLower {
					flush()
				}
				cur = append(cur, r)
				prevLower = unicode.IsLower(r)
			default:
				flush()
				prevLower = false
			}
		}
		flush()
	}
	return out
}

// unit is one text unit of an article page.
type unit struct {
	owner int32 // the owning block element
	text  string
	words int
	links int  // words inside <a>
	boil  bool // inside a boilerplate element (tag or class)
	head  int  // 1–6 when the owner is a heading h1–h6, else 0
	item  bool // the owner is a list item
	// template marks a unit whose text recurs on another page of the layout cluster.
	template bool
	// sig is the number of signifier matches in the unit; sigWeight the weight they
	// add to its value (unitValue).
	sig       int
	sigWeight float64
}

// articlePage is a page cut into units, with per-element sums.
type articlePage struct {
	*page
	units []unit
	// boilTag, boilClass flag the elements that are boilerplate by tag or by class
	// (not inherited).
	boilTag, boilClass []bool
	title              string
	meta               map[string]string // description, og:title, og:description…
	h1                 []string
	toksByUnit         [][]string // folded tokens of each unit, made by unitTokens
}

// newArticlePage cuts p into units.
func newArticlePage(p *page) *articlePage {
	a := &articlePage{page: p, boilTag: make([]bool, len(p.elems)), boilClass: make([]bool, len(p.elems)),
		meta: map[string]string{}}
	for i := range p.elems {
		e := &p.elems[i]
		if boilerTags[e.n.DataAtom] {
			a.boilTag[i] = true
		}
		if e.n.DataAtom != atom.Body && e.n.DataAtom != atom.Html {
			for _, w := range classWords(e.n) {
				if boilerWords[w] {
					a.boilClass[i] = true
					break
				}
			}
		}
	}
	a.readHead()
	var cur strings.Builder
	var curOwner int32 = -1
	var curLinks int
	flush := func() {
		if curOwner >= 0 {
			t := collapse(cur.String())
			if w := countWords(t); w > 0 {
				u := unit{owner: curOwner, text: t, words: w, links: curLinks}
				switch tag := p.elems[curOwner].n.DataAtom; tag {
				case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
					u.head = int(tag.String()[1] - '0')
				case atom.Li, atom.Dt, atom.Dd:
					u.item = true
				}
				a.units = append(a.units, u)
			}
		}
		cur.Reset()
		curOwner, curLinks = -1, 0
	}
	var walk func(n *html.Node, owner int32, inLink bool)
	walk = func(n *html.Node, owner int32, inLink bool) {
		switch n.Type {
		case html.TextNode:
			if owner < 0 {
				return
			}
			if curOwner != owner {
				flush()
				curOwner = owner
			}
			cur.WriteString(n.Data)
			if inLink {
				curLinks += countWords(n.Data)
			}
			return
		case html.ElementNode:
		case html.DocumentNode:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, owner, inLink)
			}
			return
		default:
			return
		}
		i, ok := p.elemOf(n)
		if !ok || p.elems[i].skipped {
			return
		}
		if n.DataAtom == atom.Br {
			cur.WriteString(" \n ")
			return
		}
		if n.DataAtom == atom.Img {
			// an image separates words as a space would
			cur.WriteByte(' ')
			return
		}
		block := articleBlockTags[n.DataAtom] || p.body < 0 && i == 0
		if block {
			flush()
			owner = i
		}
		inLink = inLink || n.DataAtom == atom.A
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, owner, inLink)
		}
		if block {
			flush()
		} else if !inLink && isSpacingInline(n.DataAtom) {
			cur.WriteByte(' ')
		}
	}
	if b := p.bodyIndex(); b >= 0 {
		walk(p.elems[b].n, -1, false)
	}
	flush()
	a.markBoilerplate()
	return a
}

// goodUnit reports a unit that reads as a paragraph of body text: long enough, and
// mostly outside links.
func goodUnit(u *unit) bool {
	return u.words >= minGoodWords && float64(u.links) < maxGoodLinkShare*float64(u.words)
}

const (
	minGoodWords     = 10
	maxGoodLinkShare = 0.3
	// boilExemptShare: a boilerplate-named element holding this share of the page's
	// good words is a wrapper of the whole page, not boilerplate.
	boilExemptShare = 0.5
)

// markBoilerplate sets unit.boil: the unit's owner or one of its ancestors is
// boilerplate by tag or by class, unless that element holds at least boilExemptShare of
// the good words of the page.
func (a *articlePage) markBoilerplate() {
	good := make([]int, len(a.elems))
	total := 0
	for i := range a.units {
		u := &a.units[i]
		if !goodUnit(u) {
			continue
		}
		total += u.words
		for e := u.owner; e >= 0; e = a.elems[e].parent {
			good[e] += u.words
		}
	}
	for i := range a.units {
		u := &a.units[i]
		for e := u.owner; e >= 0; e = a.elems[e].parent {
			if (a.boilTag[e] || a.boilClass[e]) && float64(good[e]) < boilExemptShare*float64(total) {
				u.boil = true
				break
			}
		}
	}
}

// isSpacingInline reports inline elements that a browser renders apart from their
// neighbours (cells of inline layout such as input or a line of a select).
func isSpacingInline(t atom.Atom) bool {
	switch t {
	case atom.Input, atom.Select, atom.Textarea, atom.Video, atom.Audio, atom.Iframe:
		return true
	}
	return false
}

// countWords counts the word tokens of s: maximal runs of letters, numbers and '_'.
func countWords(s string) int {
	n := 0
	in := false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_'
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// readHead reads the title, the meta descriptions and the h1 headings of the page.
func (a *articlePage) readHead() {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Title:
				if a.title == "" {
					a.title = collapse(nodeText(n))
				}
			case atom.Meta:
				key := strings.ToLower(attr(n, "property"))
				if key == "" {
					key = strings.ToLower(attr(n, "name"))
				}
				switch key {
				case "description", "og:title", "og:description", "twitter:title", "twitter:description":
					if _, ok := a.meta[key]; !ok {
						a.meta[key] = collapse(attr(n, "content"))
					}
				}
			case atom.H1:
				if t := collapse(nodeText(n)); t != "" {
					a.h1 = append(a.h1, t)
				}
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(a.doc)
}

// nodeText returns the raw text below n.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
			return
		}
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
