package probe

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// nextLink finds the "next" link of a result page in its HTML: rel="next", else a
// link whose text is "next" (in a few languages) or an arrow. It returns the absolute
// URL.
//
// It scans the page's bytes for the start tags of <a> and <link> elements and reads
// only those (attributes as the HTML tokenizer reads them, the link's text up to its
// end tag), skipping comments and the contents of scripts and styles: a page over HTTP
// must cost little more than its fetch, and parsing or tokenizing the whole document
// costs more than the fetch itself (BenchmarkNextLink). TestRecordMarker checks it
// against the parsed document on the test sites' pages.
func nextLink(pg Page) (string, bool) {
	base, err := url.Parse(pg.URL)
	if err != nil {
		return "", false
	}
	var byRel, byText string
	doc := pg.HTML
	for i := 0; i < len(doc) && byRel == ""; {
		j := strings.IndexByte(doc[i:], '<')
		if j < 0 {
			break
		}
		i += j + 1
		if strings.HasPrefix(doc[i:], "!--") {
			i = skipPast(doc, i+3, "-->")
			continue
		}
		name := tagName(doc[i:])
		switch name {
		case "script", "style", "textarea", "title":
			i = skipPast(doc, i, "</"+name) // raw text: no tags inside
			continue
		case "a", "link":
		default:
			continue
		}
		href, rel, end := linkAttrs(doc, i+len(name))
		i = end
		rel = strings.ToLower(rel)
		if href == "" || strings.HasPrefix(href, "javascript:") || strings.HasPrefix(href, "#") {
			continue
		}
		if slices.Contains(strings.Fields(rel), "next") {
			byRel = href
		} else if byText == "" && name == "a" && isNextText(linkText(doc[i:])) {
			byText = href
		}
	}
	href := cmpOr(byRel, byText)
	if href == "" {
		return "", false
	}
	u, err := base.Parse(href)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// skipPast returns the index just past the first occurrence of end (compared without
// case) in doc from i, or len(doc).
func skipPast(doc string, i int, end string) int {
	for i < len(doc) {
		j := strings.IndexByte(doc[i:], end[0])
		if j < 0 {
			break
		}
		i += j
		if len(doc)-i >= len(end) && strings.EqualFold(doc[i:i+len(end)], end) {
			return i + len(end)
		}
		i++
	}
	return len(doc)
}

// tagName returns the lower-case element name that s (the text after a '<') starts
// with, "" when it does not start a start tag.
func tagName(s string) string {
	n := 0
	for n < len(s) && n < 8 && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	if n == 0 || n == len(s) {
		return ""
	}
	switch s[n] {
	case ' ', '\t', '\n', '\r', '\f', '>', '/':
		return strings.ToLower(s[:n])
	}
	return ""
}

// linkAttrs reads the href and rel attributes of the start tag whose name ends at i in
// doc, as HTML's tokenizer does (names without case, values quoted or not, character
// references decoded, the first of a repeated name kept), and returns them with the
// index just past the tag's '>'.
func linkAttrs(doc string, i int) (href, rel string, end int) {
	var hasHref, hasRel bool
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	for i < len(doc) {
		for i < len(doc) && (isSpace(doc[i]) || doc[i] == '/') {
			i++
		}
		if i >= len(doc) {
			break
		}
		if doc[i] == '>' {
			return href, rel, i + 1
		}
		k := i
		for i < len(doc) && !isSpace(doc[i]) && doc[i] != '=' && doc[i] != '>' && (doc[i] != '/' || i == k) {
			i++
		}
		key := doc[k:i]
		for i < len(doc) && isSpace(doc[i]) {
			i++
		}
		val := ""
		if i < len(doc) && doc[i] == '=' {
			i++
			for i < len(doc) && isSpace(doc[i]) {
				i++
			}
			if i < len(doc) && (doc[i] == '"' || doc[i] == '\'') {
				q := doc[i]
				e := strings.IndexByte(doc[i+1:], q)
				if e < 0 {
					return href, rel, len(doc)
				}
				val, i = doc[i+1:i+1+e], i+2+e
			} else {
				v := i
				for i < len(doc) && !isSpace(doc[i]) && doc[i] != '>' {
					i++
				}
				val = doc[v:i]
			}
		}
		switch {
		case !hasHref && strings.EqualFold(key, "href"):
			href, hasHref = unescape(val), true
		case !hasRel && strings.EqualFold(key, "rel"):
			rel, hasRel = unescape(val), true
		}
	}
	return href, rel, len(doc)
}

// maxLinkText bounds the bytes read for a link's text: a missing end tag must not
// read the rest of the page.
const maxLinkText = 2048

// linkText returns the text of a link whose content starts s, up to its end tag (tags
// inside dropped, character references decoded), lower-cased with white space
// collapsed.
func linkText(s string) string {
	s = s[:min(len(s), maxLinkText)]
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j + 1
		if len(s)-i >= 2 && (s[i] == '/' && (s[i+1] == 'a' || s[i+1] == 'A')) && (len(s)-i == 2 || strings.IndexByte(" \t\n\r\f>", s[i+2]) >= 0) {
			break // </a>
		}
		if tagName(s[i:]) == "a" {
			break // an <a> inside an <a> closes the first
		}
		e := strings.IndexByte(s[i:], '>')
		if e < 0 {
			break
		}
		i += e + 1
	}
	return strings.ToLower(strings.Join(strings.Fields(unescape(b.String())), " "))
}

// unescape decodes the character references of s, if it has any.
func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return html.UnescapeString(s)
}
