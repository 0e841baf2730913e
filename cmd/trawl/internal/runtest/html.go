package runtest

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// CheckHTML parses a report with golang.org/x/net/html and checks that its markup is
// balanced: every element the template opens is closed in order.
func CheckHTML(t testing.TB, raw []byte) *html.Node {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(raw))
	var stack []string
	void := map[string]bool{"meta": true, "img": true, "br": true, "input": true, "hr": true, "link": true, "col": true, "wbr": true}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken:
			if !void[tok.Data] {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tok.Data {
				t.Fatalf("unbalanced markup: </%s> closes %v", tok.Data, stack[max(0, len(stack)-3):])
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements: %v", stack)
	}
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"source", "form", "probes", "page", "schema", "mapping", "alignment", "enrichment"} {
		if ByID(doc, id) == nil {
			t.Errorf("no section #%s", id)
		}
	}
	return doc
}

// CheckSelfContained checks that nothing in the document makes a request: no script,
// no link, no object; src only as data: URIs; no CSS url(); links only to http(s) pages
// or anchors (none at all inside an embedded page); no event handlers.
func CheckSelfContained(t testing.TB, doc *html.Node, embedded bool) {
	t.Helper()
	Walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.DataAtom {
		case atom.Script, atom.Link, atom.Object, atom.Embed, atom.Base, atom.Noscript:
			t.Errorf("embedded=%v: <%s> element", embedded, n.Data)
		case atom.Style:
			if css := Text(n); strings.Contains(strings.ToLower(css), "url(") || strings.Contains(css, "@import") {
				t.Errorf("embedded=%v: <style> loads a resource: %.80s", embedded, css)
			}
		case atom.Iframe:
			if embedded || HasAttr(n, "src") {
				t.Errorf("embedded=%v: iframe with src or nested", embedded)
			}
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(k, "on"):
				t.Errorf("embedded=%v: event handler %s on <%s>", embedded, a.Key, n.Data)
			case k == "src" || k == "srcset" || k == "poster" || k == "background":
				if !strings.HasPrefix(a.Val, "data:image/png;base64,") || embedded {
					t.Errorf("embedded=%v: <%s %s=%.60q>", embedded, n.Data, a.Key, a.Val)
				}
			case k == "href":
				if embedded || n.DataAtom != atom.A || !(strings.HasPrefix(a.Val, "#") || strings.HasPrefix(a.Val, "http://") || strings.HasPrefix(a.Val, "https://")) {
					t.Errorf("embedded=%v: <%s href=%.60q>", embedded, n.Data, a.Val)
				}
			case k == "style":
				if strings.Contains(strings.ToLower(a.Val), "url(") {
					t.Errorf("embedded=%v: style with url(): %.60q", embedded, a.Val)
				}
			case k == "http-equiv" && !strings.EqualFold(a.Val, "Content-Security-Policy"):
				t.Errorf("embedded=%v: meta http-equiv=%q", embedded, a.Val)
			}
		}
	})
	csp := false
	Walk(doc, func(n *html.Node) {
		if n.DataAtom == atom.Meta && strings.EqualFold(Attr(n, "http-equiv"), "Content-Security-Policy") && strings.Contains(Attr(n, "content"), "default-src 'none'") {
			csp = true
		}
	})
	if !csp {
		t.Errorf("embedded=%v: no Content-Security-Policy forbidding requests", embedded)
	}
}

// Walk calls fn on n and every node below it, in document order.
func Walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		Walk(c, fn)
	}
}

// FindAll returns the elements of kind a.
func FindAll(doc *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	Walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == a {
			out = append(out, n)
		}
	})
	return out
}

// FindClass returns the elements of a class.
func FindClass(doc *html.Node, class string) []*html.Node {
	var out []*html.Node
	Walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && slices.Contains(strings.Fields(Attr(n, "class")), class) {
			out = append(out, n)
		}
	})
	return out
}

// ByID returns the element of an id, or nil.
func ByID(doc *html.Node, id string) *html.Node {
	var out *html.Node
	Walk(doc, func(n *html.Node) {
		if out == nil && n.Type == html.ElementNode && Attr(n, "id") == id {
			out = n
		}
	})
	return out
}

// Attr returns an attribute's value ("" when absent).
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// HasAttr reports whether n has the attribute.
func HasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

// Text is the text of a subtree (attribute values excluded), words separated.
func Text(n *html.Node) string {
	var b strings.Builder
	Walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// SectionText is the text of the report section of an id.
func SectionText(t testing.TB, doc *html.Node, id string) string {
	t.Helper()
	s := ByID(doc, id)
	if s == nil {
		t.Fatalf("no section #%s", id)
	}
	return Text(s)
}

// SummaryValue reads a number of the summary line.
func SummaryValue(doc *html.Node, label string) string {
	for _, ul := range FindClass(doc, "summary") {
		for li := ul.FirstChild; li != nil; li = li.NextSibling {
			if li.Type != html.ElementNode || li.FirstChild == nil {
				continue
			}
			if strings.TrimSpace(Text(li.FirstChild.NextSibling)) == label {
				return Text(li.FirstChild)
			}
		}
	}
	return ""
}
