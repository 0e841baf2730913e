package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// forestComparer is the comparison of the prober's HTTP path (probe.PageComparer,
// Options.HTTPPages):
// FOREST learns the wrapper from the browser's result pages so far, once with the
// browser's capture of a page and once with its HTTP fetch; the fetch is the same
// page when both wrappers and the page's records are equal. Pages fetched over HTTP
// later are read with the wrapper learnt from the browser's pages.
type forestComparer struct {
	log *slog.Logger

	mu      sync.Mutex
	pages   []records.Page // the browser's pages that agreed
	applier *records.Applier
}

// newForestComparer returns a maker of comparers, one per prober (probe.Options.HTTPCompare).
func newForestComparer(log *slog.Logger) func() probe.PageComparer {
	return func() probe.PageComparer { return &forestComparer{log: log} }
}

func (c *forestComparer) Same(ctx context.Context, browser, fetched probe.Page) (bool, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name := fmt.Sprintf("check-%d", len(c.pages)+1)
	bp := records.Page{Name: name, URL: browser.URL, HTML: []byte(browser.HTML)}
	hp := bp
	hp.HTML = []byte(fetched.HTML)
	ro := records.DefaultOptions()
	bPages := append(slices.Clone(c.pages), bp)
	wb, rb, errB := records.Extract(ctx, bPages, ro)
	wh, rh, errH := records.Extract(ctx, append(slices.Clone(c.pages), hp), ro)
	switch {
	case errB != nil && errH != nil:
		// No wrapper from so few pages yet: the text must agree.
		if pageText(browser.HTML) != pageText(fetched.HTML) {
			return false, "the page's text differs"
		}
		c.pages = bPages
		return true, ""
	case errB != nil || errH != nil:
		return false, fmt.Sprintf("a wrapper is learnt from one version only (browser: %v, HTTP: %v)", errB, errH)
	}
	if sb, sh := wrapperSignature(wb), wrapperSignature(wh); sb != sh {
		return false, fmt.Sprintf("the wrappers differ (%s, over HTTP %s)", sb, sh)
	}
	kb, kh := recordKeys(rb, name), recordKeys(rh, name)
	if !slices.Equal(kb, kh) {
		return false, fmt.Sprintf("%d records in the browser, %d over HTTP, not the same", len(kb), len(kh))
	}
	a, err := records.NewApplier(wb, records.DefaultApplyOptions())
	if err != nil {
		return false, err.Error()
	}
	c.pages, c.applier = bPages, a
	return true, ""
}

func (c *forestComparer) Records(ctx context.Context, pg probe.Page) []string {
	c.mu.Lock()
	a := c.applier
	c.mu.Unlock()
	if a == nil {
		return nil
	}
	recs, _, err := a.Apply(ctx, records.Page{Name: "http", URL: pg.URL, HTML: []byte(pg.HTML)})
	if err != nil {
		c.log.Debug("apply the wrapper to an HTTP page", "url", pg.URL, "err", err)
		return nil
	}
	xpaths := make([]string, len(recs))
	for i, r := range recs {
		xpaths[i] = r.XPath
	}
	return xpaths
}

// wrapperSignature is what makes a wrapper: its record XPath and its templates'
// (the statistics around them depend on byte offsets and timing).
func wrapperSignature(w *records.Wrapper) string {
	parts := []string{w.XPath}
	for _, t := range w.Templates {
		parts = append(parts, t.XPath)
	}
	return strings.Join(parts, " | ")
}

// recordKeys lists the records of one page as XPath and leaf texts, in order.
func recordKeys(recs []records.Record, page string) []string {
	var out []string
	for _, r := range recs {
		if r.Page != page {
			continue
		}
		var b strings.Builder
		b.WriteString(r.XPath)
		for _, l := range r.Leaves {
			b.WriteString("|")
			b.WriteString(l.Text)
		}
		out = append(out, b.String())
	}
	return out
}

// pageText is the words of a page, for comparing two versions of it.
func pageText(h string) string {
	var b strings.Builder
	in := false
	for _, r := range h {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
