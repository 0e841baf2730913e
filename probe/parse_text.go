package probe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Helpers of the form parser: attributes, rendered text, labels' text and XPaths.

// attr returns the value of the attribute key of n ("" when absent). Attribute names
// are lower-case in trees built by x/net/html and by Chromium's serializer.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// hasAttr reports whether n has the attribute key, whatever its value.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return true
		}
	}
	return false
}

// isElement reports whether n is an HTML element named tag.
func isElement(n *html.Node, tag string) bool {
	return n != nil && n.Type == html.ElementNode && n.Data == tag && n.Namespace == ""
}

// notRendered reports whether the subtree of element n is never rendered as text: scripts,
// styles, templates, the head, and elements hidden by the hidden attribute or an inline
// display:none / visibility:hidden. Style sheets are not evaluated: a page parsed from a
// file only knows inline styles.
func notRendered(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.Data {
	case "script", "style", "template", "noscript", "head", "title", "iframe", "object", "svg", "math":
		return true
	}
	if hasAttr(n, "hidden") {
		return true
	}
	if s := attr(n, "style"); s != "" && inlineHidden(s) {
		return true
	}
	return false
}

// inlineHidden reports whether an inline style hides its element.
func inlineHidden(style string) bool {
	s := strings.ToLower(style)
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	return strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden")
}

// maxTextWalk bounds the number of nodes a text collection visits, so that a huge page
// costs linear time overall.
const maxTextWalk = 20000

// textOptions tunes renderedText.
type textOptions struct {
	// skipControls leaves out the text inside select, option, textarea and button
	// elements (a label that wraps a select should not read its options).
	skipControls bool
	// limit caps the number of bytes collected (0 = no cap).
	limit int
}

// renderedText returns the visible text of the subtree of n, words separated by single
// spaces.
func renderedText(n *html.Node, o textOptions) string {
	var b strings.Builder
	visited := 0
	var walk func(*html.Node) bool
	walk = func(c *html.Node) bool {
		visited++
		if visited > maxTextWalk || (o.limit > 0 && b.Len() >= o.limit) {
			return false
		}
		switch c.Type {
		case html.TextNode:
			appendWords(&b, c.Data)
			return true
		case html.ElementNode:
			if notRendered(c) {
				return true
			}
			if o.skipControls {
				switch c.Data {
				case "select", "option", "optgroup", "textarea", "button", "datalist":
					return true
				}
			}
			if c.Data == "br" || c.Data == "p" || c.Data == "div" || c.Data == "li" || c.Data == "td" || c.Data == "th" {
				// block boundaries separate words; appendWords adds the space
				appendWords(&b, " ")
			}
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			if !walk(k) {
				return false
			}
		}
		return true
	}
	if n.Type == html.TextNode {
		appendWords(&b, n.Data)
	} else {
		for k := n.FirstChild; k != nil; k = k.NextSibling {
			if !walk(k) {
				break
			}
		}
	}
	return cut(strings.TrimSpace(b.String()), o.limit)
}

// appendWords appends the words of s to b, separated from what b holds by one space.
func appendWords(b *strings.Builder, s string) {
	for w := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
}

// collapse trims s and replaces runs of white space by one space.
func collapse(s string) string {
	if !strings.ContainsFunc(s, unicode.IsSpace) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// cut shortens s to at most limit bytes on a rune boundary (limit 0 = no cut).
func cut(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return strings.TrimSpace(s[:limit])
}

// maxLabel caps a label's length; longer text is a paragraph, not a label.
const maxLabel = 160

// cleanLabel collapses white space and trims the decorations that surround a label:
// a trailing colon or asterisk ("Author: *" → "Author").
func cleanLabel(s string) string {
	s = collapse(s)
	s = strings.TrimRightFunc(s, func(r rune) bool {
		return r == ':' || r == '*' || r == '：' || unicode.IsSpace(r)
	})
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r == '*' || unicode.IsSpace(r) })
	return s
}

// xpather computes index-qualified XPaths, numbering the children of each parent once,
// so that a page with thousands of sibling controls costs linear time.
type xpather struct {
	index map[*html.Node]int // element → its position among same-tag siblings (from 1)
}

// xpath returns the index-qualified absolute XPath of element n:
// /html[1]/body[1]/form[2]. Each step counts the preceding siblings with the same tag.
func (x *xpather) xpath(n *html.Node) string {
	if x.index == nil {
		x.index = map[*html.Node]int{}
	}
	var steps []string
	for c := n; c != nil && c.Type == html.ElementNode; c = c.Parent {
		i, ok := x.index[c]
		if !ok {
			x.number(c)
			i = x.index[c]
		}
		steps = append(steps, c.Data+"["+strconv.Itoa(i)+"]")
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

// number records the same-tag position of c and of all its siblings.
func (x *xpather) number(c *html.Node) {
	if c.Parent == nil {
		x.index[c] = 1
		return
	}
	count := map[string]int{}
	for s := c.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode {
			count[s.Data]++
			x.index[s] = count[s.Data]
		}
	}
}

// isAncestor reports whether a is a proper ancestor of n.
func isAncestor(a, n *html.Node) bool {
	for c := n.Parent; c != nil; c = c.Parent {
		if c == a {
			return true
		}
	}
	return false
}

// atoiAttr parses a non-negative integer attribute ("" or invalid → 0).
func atoiAttr(n *html.Node, key string) int {
	v := strings.TrimSpace(attr(n, key))
	if v == "" {
		return 0
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return 0
	}
	return i
}
