package probe

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Controls outside any form. Many sites build their search box without a <form>: a text
// input and a button whose click handler builds the result URL. Such controls are grouped
// into a form when a button (or a search-box marking) ties them together.

// formlessGroup is a set of controls outside any form that act as one form.
type formlessGroup struct {
	root     *html.Node // the smallest container of the text box and its button
	controls []control
}

const (
	// maxClimb bounds how many ancestors above a text box are searched for its button.
	maxClimb = 6
	// maxStray bounds the formless controls considered on one page.
	maxStray = 10000
)

// formlessGroups groups the formless controls of the page. A group starts from a
// visible text or search box; its container is the nearest ancestor (at most maxClimb
// levels up) that also holds a button; the group is kept when something says search:
// the box's type or role, a search landmark, or a search word in the attributes or text
// of the box, the button or the container. A search box without any button (submitted
// with the Enter key) makes a group of its own.
func (p *page) formlessGroups() []formlessGroup {
	var stray []control
	for _, c := range p.controls {
		if c.owner == nil {
			stray = append(stray, c)
			if len(stray) >= maxStray {
				break
			}
		}
	}
	if len(stray) == 0 {
		return nil
	}
	// under maps each element to the formless controls at most maxClimb levels below it
	under := map[*html.Node][]int{}
	for j, d := range stray {
		for a, l := d.n.Parent, 0; a != nil && l < maxClimb; a, l = a.Parent, l+1 {
			under[a] = append(under[a], j)
		}
	}
	used := make([]bool, len(stray))
	button := make([]bool, len(stray))
	for j, d := range stray {
		button[j] = isButton(d.n)
	}
	rejected := map[*html.Node]bool{}
	var groups []formlessGroup
	for i, c := range stray {
		if used[i] || !textBox(c.n) || hasAttr(c.n, "disabled") {
			continue
		}
		var root *html.Node
		var members []int
		skip := false
		for a, level := c.n.Parent, 0; a != nil && level < maxClimb; a, level = a.Parent, level+1 {
			if a.Type != html.ElementNode || a.Data == "body" || a.Data == "html" {
				break
			}
			if rejected[a] {
				skip = true // this box would end in a container already refused
				break
			}
			members = members[:0]
			hasButton := false
			for _, j := range under[a] {
				if !used[j] {
					members = append(members, j)
					if button[j] {
						hasButton = true
					}
				}
			}
			if !hasButton {
				hasButton = hasClickable(a)
			}
			if hasButton {
				root = a
				break
			}
		}
		if skip {
			continue
		}
		if root == nil {
			if !strongSearchBox(c.n) {
				continue
			}
			root = c.n.Parent
			members = []int{i}
		}
		if rejected[root] {
			continue
		}
		if !p.saysSearch(root, stray, members) {
			// the other boxes of this container would meet the same button
			rejected[root] = true
			continue
		}
		g := formlessGroup{root: root}
		for _, j := range members {
			used[j] = true
			g.controls = append(g.controls, stray[j])
		}
		groups = append(groups, g)
	}
	return groups
}

// textBox reports whether n is a visible box for free text.
func textBox(n *html.Node) bool {
	if n.Data != "input" {
		return false
	}
	_, t := controlType(n)
	return t == "text" || t == "search"
}

// isButton reports whether a control submits or triggers something.
func isButton(n *html.Node) bool {
	tag, t := controlType(n)
	return tag == "button" || t == "submit" || t == "image" || t == "button"
}

// hasClickable reports whether the subtree of a holds a non-control element that acts as
// a button: role=button, an onclick handler, or a link to javascript:.
func hasClickable(a *html.Node) bool {
	found := false
	visited := 0
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		for k := c.FirstChild; k != nil && !found && visited < 500; k = k.NextSibling {
			visited++
			if k.Type != html.ElementNode {
				continue
			}
			if strings.EqualFold(attr(k, "role"), "button") || hasAttr(k, "onclick") ||
				(k.Data == "a" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(attr(k, "href"))), "javascript:")) {
				found = true
				return
			}
			walk(k)
		}
	}
	walk(a)
	return found
}

// strongSearchBox reports whether the markup of a text box says it is a search box.
func strongSearchBox(n *html.Node) bool {
	if _, t := controlType(n); t == "search" {
		return true
	}
	switch strings.ToLower(attr(n, "role")) {
	case "searchbox":
		return true
	}
	return hasSearchWord(attr(n, "name"), attr(n, "id"), attr(n, "placeholder"), attr(n, "aria-label"), attr(n, "title"))
}

// saysSearch reports whether a formless group is a search box and its button.
func (p *page) saysSearch(root *html.Node, stray []control, members []int) bool {
	if landmark(root) == "search" {
		return true
	}
	if hasSearchWord(attr(root, "id"), attr(root, "class"), attr(root, "aria-label")) {
		return true
	}
	for _, j := range members {
		n := stray[j].n
		if strongSearchBox(n) {
			return true
		}
		if isButton(n) {
			if hasSearchWord(attr(n, "value"), attr(n, "id"), attr(n, "class"), attr(n, "aria-label"),
				attr(n, "title"), attr(n, "alt"), attr(n, "name"), renderedText(n, textOptions{limit: 100})) {
				return true
			}
		}
	}
	return false
}

// searchStems say "search" in the languages most frequent on the Web. They match
// inside words, so that compound identifiers ("searchBox", "site_suche") match too.
var searchStems = []string{
	"search", "query", "keyword", "suche", "recherch", "busca", "pesquis", "ricerca", "zoek",
	"szuk", "hleda", "поиск", "пошук", "найти", "искать", "搜索", "搜尋", "检索", "検索", "검색",
	"بحث", "جستجو", "חיפוש", "ค้นหา",
}

// searchTokens are whole words and names of keyword boxes that say "search".
var searchTokens = map[string]bool{
	"q": true, "s": true, "k": true, "kw": true, "kwd": true, "wd": true, "qs": true,
	"find": true, "lookup": true, "sok": true, "haku": true, "ara": true, "arama": true,
	"cerca": true, "cauta": true, "hledat": true, "hledej": true, "søg": true, "sog": true,
	"buscar": true, "trouver": true, "finden": true,
}

// hasSearchWord reports whether any of the texts contains a search word.
func hasSearchWord(texts ...string) bool {
	for _, t := range texts {
		if t == "" {
			continue
		}
		f := textnorm.Fold(t)
		for _, s := range searchStems {
			if strings.Contains(f, s) {
				return true
			}
		}
		for _, tok := range textnorm.Tokens(t) {
			if searchTokens[tok] {
				return true
			}
		}
	}
	return false
}
