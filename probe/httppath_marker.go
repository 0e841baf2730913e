package probe

import (
	"context"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// learnMarker learns the record marker of a check page fetched over HTTP, whose records
// (their XPaths) the wrapper found: it must occur once per record in the page's bytes,
// and be the same on every check page. Otherwise pages are tested by the wrapper.
func (h *httpPath) learnMarker(pg Page, recs []string) {
	m := recordMarker(pg.HTML, recs)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.markerBad:
	case m == "" || strings.Count(pg.HTML, m) != len(recs):
		h.markerBad, h.marker = true, ""
		h.p.log.Info("no record marker: pages over HTTP are tested by the wrapper", "url", pg.URL, "marker", m)
	case h.marker != "" && h.marker != m:
		h.markerBad, h.marker = true, ""
		h.p.log.Info("the check pages' record markers differ: pages over HTTP are tested by the wrapper", "url", pg.URL)
	default:
		h.marker = m
	}
}

// hasRecords reports whether a page fetched over HTTP has records: by the record
// marker when the checks learnt one, else by the wrapper.
func (h *httpPath) hasRecords(ctx context.Context, pg Page) bool {
	h.mu.Lock()
	m := h.marker
	h.mu.Unlock()
	if m != "" {
		return strings.Contains(pg.HTML, m)
	}
	return len(h.cmp.Records(ctx, pg)) > 0
}

// recordMarker returns the text that opens each record element of a page, as written
// in its bytes: the start tag of the elements at the records' XPaths, rendered up to the
// opening quote of the first attribute whose value differs between them (an id, a link),
// or whole when all are alike ("<tr data-record=\"", "<li class=\"book\">"). It returns
// "" when the elements are not found, differ in name or attribute names, or hold
// characters whose spelling in the page cannot be known. The caller checks the marker
// against the page (one occurrence per record).
func recordMarker(page string, xpaths []string) string {
	if len(xpaths) == 0 {
		return ""
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return ""
	}
	var nodes []*html.Node
	for _, xp := range xpaths {
		n := nodeAt(doc, xp)
		if n == nil {
			return ""
		}
		nodes = append(nodes, n)
	}
	first := nodes[0]
	var b strings.Builder
	b.WriteString("<" + first.Data)
	for i, a := range first.Attr {
		if a.Namespace != "" {
			return ""
		}
		same := true
		for _, n := range nodes[1:] {
			if n.Data != first.Data || len(n.Attr) != len(first.Attr) || n.Attr[i].Key != a.Key {
				return ""
			}
			same = same && n.Attr[i].Val == a.Val
		}
		b.WriteString(" " + a.Key + `="`)
		if !same || strings.ContainsAny(a.Val, `&<>"'`) {
			return b.String()
		}
		b.WriteString(a.Val + `"`)
	}
	for _, n := range nodes[1:] {
		if n.Data != first.Data || len(n.Attr) != len(first.Attr) {
			return ""
		}
	}
	b.WriteString(">")
	return b.String()
}

// nodeAt returns the element at an absolute, index-qualified XPath
// (/html[1]/body[1]/table[1]/tr[2]), or nil.
func nodeAt(doc *html.Node, xpath string) *html.Node {
	n := doc
	for step := range strings.SplitSeq(strings.TrimPrefix(xpath, "/"), "/") {
		name, idx, ok := strings.Cut(step, "[")
		k, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
		if !ok || err != nil || k < 1 {
			return nil
		}
		var next *html.Node
		for c := n.FirstChild; c != nil && next == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.Data == name {
				if k--; k == 0 {
					next = c
				}
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}
