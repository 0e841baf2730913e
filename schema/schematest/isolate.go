package schematest

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/records"
)

// Records isolates the records of a page the way FOREST reports them: every element at
// the unindexed absolute path recordPath ("/html/body/table/tbody/tr") is a record; its
// XPath is index-qualified; its leaves are its non-empty text nodes and its images, each
// with the record-internal path of tag and tolerant class (forest.md §2.3). When
// positions is true, an element without class among same-tag siblings also gets its
// position ("td[3]"), as FOREST's paths do for table cells.
func Records(page []byte, pageName, pageURL, recordPath string, positions bool) ([]records.Record, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	base, _ := url.Parse(pageURL)
	steps := strings.Split(strings.TrimPrefix(recordPath, "/"), "/")
	var found []*html.Node
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if depth == len(steps) {
			found = append(found, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == steps[depth] {
				walk(c, depth+1)
			}
		}
	}
	walk(doc, 0)
	var out []records.Record
	for _, n := range found {
		r := records.Record{Page: pageName, XPath: xpathOf(n)}
		collect(n, n, base, positions, &r.Leaves)
		out = append(out, r)
	}
	return out, nil
}

func xpathOf(n *html.Node) string {
	var steps []string
	for ; n != nil && n.Type == html.ElementNode; n = n.Parent {
		k := 0
		for s := n; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == n.Data {
				k++
			}
		}
		steps = append(steps, fmt.Sprintf("%s[%d]", n.Data, k))
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return "/" + strings.Join(steps, "/")
}

// Tolerant returns the tolerant form of a class value: its first token without digits,
// trimmed of '-' and '_' (forest.md §2.3).
func Tolerant(class string) string {
	f := strings.Fields(class)
	if len(f) == 0 {
		return ""
	}
	t := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, f[0])
	return strings.Trim(t, "-_")
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func step(n *html.Node, positions bool) string {
	s := n.Data
	if c := Tolerant(attr(n, "class")); c != "" {
		return s + "." + c
	}
	if positions {
		k, total := 0, 0
		for x := n.Parent.FirstChild; x != nil; x = x.NextSibling {
			if x.Type == html.ElementNode && x.Data == n.Data {
				total++
				if x == n {
					k = total
				}
			}
		}
		if total > 1 {
			s += "[" + strconv.Itoa(k) + "]"
		}
	}
	return s
}

func relPath(root, n *html.Node, positions bool) string {
	var steps []string
	for ; n != nil && n != root; n = n.Parent {
		steps = append(steps, step(n, positions))
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return strings.Join(steps, "/")
}

func collect(root, n *html.Node, base *url.URL, positions bool, out *[]records.Leaf) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			t := strings.Join(strings.Fields(c.Data), " ")
			if t == "" {
				continue
			}
			*out = append(*out, records.Leaf{Path: relPath(root, n, positions), Text: t, Href: linkOf(root, n, base)})
		case html.ElementNode:
			switch c.DataAtom {
			case atom.Script, atom.Style, atom.Input, atom.Select, atom.Textarea:
				continue
			case atom.Img:
				*out = append(*out, records.Leaf{Path: relPath(root, c, positions), Src: resolve(base, attr(c, "src")), Alt: attr(c, "alt"), Href: linkOf(root, c, base)})
				continue
			}
			collect(root, c, base, positions, out)
		}
	}
}

func linkOf(root, n *html.Node, base *url.URL) string {
	for ; n != nil && n != root.Parent; n = n.Parent {
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			return resolve(base, attr(n, "href"))
		}
	}
	return ""
}

func resolve(base *url.URL, ref string) string {
	if ref == "" {
		return ""
	}
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil || base == nil {
		return ref
	}
	return base.ResolveReference(u).String()
}
