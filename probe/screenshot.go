package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A records screenshot renders a page trawl saved earlier, offline: the saved DOM goes
// into a fresh tab with Page.setDocumentContent (the document stays about:blank), with
// three independent guards against touching the site again:
//
//  1. the markup is made inert in Go first: scripts, <noscript>, <base>, <link>, meta
//     refresh, event-handler attributes and every attribute that loads a resource
//     (src, srcset, data, poster, background, …; images inlined as data: URLs stay)
//     are removed, and a
//     Content-Security-Policy <meta> forbids any load but data: URLs;
//  2. script execution is off in the tab (Emulation.setScriptExecutionDisabled);
//  3. every request of the tab is intercepted (Fetch.enable, all resource types) and
//     failed, so whatever the first two miss (a CSS url(), an @import) never leaves the
//     browser.
//
// The records are located in Go, on the saved HTML parsed by the same HTML5 parser that
// computed their XPaths (package records), and marked with an attribute before the page
// is serialised again; in the browser the outlines are drawn on the marked elements.
// The match therefore does not depend on Chromium re-parsing the page into exactly the
// same tree.

// Screenshot limits: a records screenshot is at most shotMaxWidth × shotMaxHeight CSS
// pixels.
const (
	shotMaxWidth  = 2000
	shotMaxHeight = 4000
	shotMargin    = 120 // pixels kept above the first record when the capture cannot start at the top
)

// recAttr and extraAttr mark the elements of the records in the rendered copy (never in
// a saved file).
const (
	recAttr   = "data-trawl-rec"
	extraAttr = "data-trawl-extra"
)

// RecordsShot is a screenshot of a saved result page with its records outlined.
type RecordsShot struct {
	// PNG is the image; Width and Height its size in pixels (CSS pixels, scale 1).
	PNG           []byte
	Width, Height int
	// Top is the page coordinate (CSS pixels) of the image's first row: 0 when the
	// capture starts at the top of the page.
	Top int
	// Records counts the records with at least one outlined element; Outlined counts
	// the outlined elements (a record's first element and its Extra siblings).
	Records, Outlined int
	// Missing lists the XPaths that match no element of the saved page; Hidden those
	// whose element has no box in the rendering (display:none, empty).
	Missing, Hidden []string
	// Blocked counts the requests the rendered page tried to make; the tab failed them
	// all, none reached the network.
	Blocked int
}

// RecordsScreenshot renders a saved page DOM (as written to pages/ by the prober) in a
// fresh tab without fetching anything — no navigation, no script, every request
// failed — outlines each record with a coloured box and a label with its number (1 for
// records[0], …), and returns a PNG of the page from the top (or from just above the
// first record when the records lie further down), at most 2000 × 4000 pixels.
//
// records[i] lists the absolute XPaths of record i+1: its element first, then the
// sibling elements of a record that spans several (records.Record.XPath and Extra), in
// the index-qualified form package records writes (/html[1]/body[1]/ol[1]/li[3]). An
// XPath that matches nothing is listed in RecordsShot.Missing; a malformed one is an
// error. It fails when no record can be outlined at all.
//
// The step timeout of the prober bounds the whole rendering; the tab is closed before
// RecordsScreenshot returns. It takes one of the prober's tab slots while it runs.
func (p *Prober) RecordsScreenshot(ctx context.Context, page string, records [][]string) (RecordsShot, error) {
	var shot RecordsShot
	if limit := 4 * p.opts.MaxPageBytes; int64(len(page)) > limit {
		return shot, fmt.Errorf("probe: records screenshot: the page has %d bytes, over the limit of %d (4 × MaxPageBytes)", len(page), limit)
	}
	doc, missing, marked, err := inertPage(page, records)
	if err != nil {
		return shot, fmt.Errorf("probe: records screenshot: %w", err)
	}
	shot.Missing = missing
	if marked == 0 {
		return shot, fmt.Errorf("probe: records screenshot: none of the %d records' XPaths matches an element of the page", len(records))
	}
	select {
	case p.pool.sem <- struct{}{}: // one of the prober's tab slots
	case <-ctx.Done():
		return shot, ctx.Err()
	}
	defer func() { <-p.pool.sem }()
	it, err := p.b.newInertTab(ctx)
	if err != nil {
		return shot, fmt.Errorf("probe: records screenshot: %w", err)
	}
	defer it.close()
	sctx, cancel := context.WithTimeout(it.ctx, p.opts.StepTimeout)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	res, err := it.render(sctx, doc, min(p.opts.SettleTimeout, 2*time.Second))
	shot.Blocked = int(it.blocked.Load())
	if n := it.leaked.Load(); n > 0 {
		// Not expected with the three guards; refuse the image rather than hide it.
		return shot, fmt.Errorf("probe: records screenshot: the rendered page received %d responses from the network despite the guards (first: %v)", n, it.leakedURL.Load())
	}
	if err != nil {
		if ctx.Err() != nil {
			return shot, fmt.Errorf("probe: records screenshot: interrupted: %w", ctx.Err())
		}
		if errors.Is(sctx.Err(), context.DeadlineExceeded) {
			return shot, fmt.Errorf("probe: records screenshot: not done within the step timeout %v: %w", p.opts.StepTimeout, err)
		}
		return shot, fmt.Errorf("probe: records screenshot: %w", err)
	}
	shot.PNG, shot.Top, shot.Records, shot.Outlined, shot.Hidden = res.png, res.top, res.records, res.outlined, res.hidden
	cfg, err := png.DecodeConfig(bytes.NewReader(shot.PNG))
	if err != nil {
		return shot, fmt.Errorf("probe: records screenshot: the browser returned no PNG image: %w", err)
	}
	shot.Width, shot.Height = cfg.Width, cfg.Height
	p.log.Debug("records screenshot", "records", shot.Records, "outlined", shot.Outlined, "missing", len(shot.Missing),
		"hidden", len(shot.Hidden), "blocked", shot.Blocked, "width", shot.Width, "height", shot.Height)
	return shot, nil
}

// inertTab is a tab that loads nothing and runs no page script.
type inertTab struct {
	ctx     context.Context // no deadline; steps derive their own
	cancel  context.CancelFunc
	frame   cdp.FrameID
	blocked atomic.Int64 // requests failed
	// leaked counts the http(s) responses the tab received: none may arrive, since
	// every request is failed; leakedURL is the first one.
	leaked    atomic.Int64
	leakedURL atomic.Value
}

// newInertTab opens a tab that fails every request it would make and runs no script of
// its documents. ctx bounds the opening only.
func (b *Browser) newInertTab(ctx context.Context) (*inertTab, error) {
	if b.isClosed() {
		return nil, errors.New("the browser is closed")
	}
	tctx, cancel := chromedp.NewContext(b.ctx)
	it := &inertTab{ctx: tctx, cancel: cancel}
	if err := within(ctx, startTimeout, func() error { return chromedp.Do(tctx) }); err != nil {
		cancel()
		return nil, fmt.Errorf("open a tab: %w", err)
	}
	it.frame = cdp.FrameID(chromedp.FromContext(tctx).Target.TargetID)
	if err := chromedp.Listen(tctx, it.onEvent); err != nil {
		cancel()
		return nil, fmt.Errorf("listen to the tab: %w", err)
	}
	sctx, scancel := context.WithTimeout(tctx, 10*time.Second)
	defer scancel()
	defer context.AfterFunc(ctx, scancel)()
	setup := []struct {
		what string
		call func() error
	}{
		{"intercept every request", func() error {
			// No pattern: every request of every resource type pauses, at the
			// request stage, and onEvent fails it.
			_, err := chromedp.Call(sctx, fetch.Enable, fetch.EnableParams{})
			return err
		}},
		{"turn scripts off", func() error {
			_, err := chromedp.Call(sctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}},
		{"disable the CSS domain", func() error { _, err := chromedp.Call(sctx, css.Disable, cdp.Empty{}); return err }},
		{"disable the DOM domain", func() error { _, err := chromedp.Call(sctx, dom.Disable, cdp.Empty{}); return err }},
	}
	for _, s := range setup {
		if err := s.call(); err != nil {
			cancel()
			return nil, fmt.Errorf("set up the tab: %s: %w", s.what, err)
		}
	}
	return it, nil
}

func (it *inertTab) close() { it.cancel() }

// onEvent runs on the tab's event loop: it must return at once and send no command.
func (it *inertTab) onEvent(ev any) {
	switch ev := ev.(type) {
	case *network.EventResponseReceived:
		if ev.Response != nil && (strings.HasPrefix(ev.Response.URL, "http:") || strings.HasPrefix(ev.Response.URL, "https:")) {
			if it.leaked.Add(1) == 1 {
				it.leakedURL.Store(ev.Response.URL)
			}
		}
	case *fetch.EventRequestPaused:
		it.blocked.Add(1)
		go func() {
			ctx, cancel := context.WithTimeout(it.ctx, 5*time.Second)
			defer cancel()
			// The error only tells that the tab is closing.
			_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		}()
	}
}

// renderResult is what render read from the tab.
type renderResult struct {
	png               []byte
	top               int
	records, outlined int
	hidden            []string
}

// outlineResult is what outlineJS returns.
type outlineResult struct {
	Outlined int      `json:"outlined"`
	Records  int      `json:"records"`
	Hidden   []string `json:"hidden"`
	First    float64  `json:"first"`  // page y of the first outlined box
	Bottom   float64  `json:"bottom"` // page y of the lowest outlined box's bottom
	Width    float64  `json:"width"`  // of the document
	Height   float64  `json:"height"`
}

// render sets the document, waits for it to be complete (at most settle), outlines the
// marked elements and captures the screenshot.
func (it *inertTab) render(ctx context.Context, doc string, settle time.Duration) (renderResult, error) {
	var res renderResult
	if _, err := chromedp.Call(ctx, cdppage.SetDocumentContent, cdppage.SetDocumentContentParams{FrameID: it.frame, HTML: doc}); err != nil {
		return res, fmt.Errorf("set the document: %w", err)
	}
	// Failed sub-resources end the loading fast; a document still loading after settle
	// is drawn as it is.
	deadline := time.Now().Add(settle)
	for {
		ready, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`))
		if err != nil {
			return res, fmt.Errorf("read the document state: %w", err)
		}
		if ready == "complete" || time.Now().After(deadline) {
			break
		}
		sleepCtx(ctx, 20*time.Millisecond)
	}
	o, err := chromedp.Run(ctx, chromedp.Evaluate[outlineResult](outlineJS))
	if err != nil {
		return res, fmt.Errorf("outline the records: %w", err)
	}
	res.records, res.outlined, res.hidden = o.Records, o.Outlined, o.Hidden
	if o.Outlined == 0 {
		return res, fmt.Errorf("none of the %d marked elements has a box in the rendered page", len(o.Hidden))
	}
	top, height := shotClip(o)
	res.top = int(top)
	shot, err := chromedp.Call(ctx, cdppage.CaptureScreenshot, cdppage.CaptureScreenshotParams{
		Format:                cdppage.CaptureScreenshotFormatPng,
		Clip:                  &cdppage.Viewport{X: 0, Y: top, Width: min(o.Width, shotMaxWidth), Height: height, Scale: 1},
		CaptureBeyondViewport: new(true),
	})
	if err != nil {
		return res, fmt.Errorf("capture: %w", err)
	}
	res.png = shot.Data
	return res, nil
}

// shotClip chooses the captured band of the page: from the top when every record fits
// in shotMaxHeight from there, else from a little above the first record; at most
// shotMaxHeight high.
func shotClip(o outlineResult) (top, height float64) {
	if o.Bottom+shotMargin > shotMaxHeight {
		top = max(0, o.First-shotMargin)
	}
	height = min(max(o.Height-top, 1), shotMaxHeight)
	return top, height
}

// outlineJS draws a box and a number label over every element marked with recAttr, in
// an absolutely positioned layer that does not move the page's own layout. Neighbouring
// records alternate two colours; a record's extra elements get a dashed box. The page
// stays scrolled to the top: the capture is clipped in page coordinates (shotClip), and
// fixed elements (headers, banners) then stay where they are at the top of the page.
const outlineJS = `(() => {
  const colours = ['#e0007a', '#0050d0'];
  const root = document.documentElement;
  const layer = document.createElement('div');
  layer.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;margin:0;padding:0;border:0;overflow:visible;z-index:2147483647;pointer-events:none';
  root.appendChild(layer);
  window.scrollTo(0, 0);
  const sx = window.scrollX, sy = window.scrollY;
  const out = {outlined: 0, records: 0, hidden: [], first: -1, bottom: 0, width: 0, height: 0};
  const done = new Set();
  for (const e of document.querySelectorAll('[` + recAttr + `]')) {
    const n = parseInt(e.getAttribute('` + recAttr + `'), 10);
    const extra = e.hasAttribute('` + extraAttr + `');
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { out.hidden.push(e.getAttribute('data-trawl-xpath') || String(n)); continue; }
    const c = colours[(n - 1) % 2];
    const x = r.left + sx, y = r.top + sy;
    const box = document.createElement('div');
    box.style.cssText = 'position:absolute;box-sizing:border-box;margin:0;padding:0;' +
      'left:' + (x - 2) + 'px;top:' + (y - 2) + 'px;width:' + (r.width + 4) + 'px;height:' + (r.height + 4) + 'px;' +
      'border:3px ' + (extra ? 'dashed ' : 'solid ') + c + ';background:' + c + '14';
    layer.appendChild(box);
    if (!done.has(n)) {
      done.add(n);
      const label = document.createElement('div');
      label.textContent = String(n);
      label.style.cssText = 'position:absolute;box-sizing:border-box;margin:0;padding:0 5px;border:0;' +
        'left:' + (x - 2) + 'px;top:' + (y - 2) + 'px;background:' + c + ';color:#fff;' +
        'font:bold 12px/16px sans-serif;border-bottom-right-radius:4px';
      layer.appendChild(label);
    }
    out.outlined++;
    if (out.first < 0 || y < out.first) out.first = y;
    out.bottom = Math.max(out.bottom, y + r.height);
  }
  out.records = done.size;
  out.width = Math.max(root.scrollWidth, document.body ? document.body.scrollWidth : 0, window.innerWidth);
  out.height = Math.max(root.scrollHeight, document.body ? document.body.scrollHeight : 0, window.innerHeight);
  return out;
})()`

// cspMeta forbids the rendered copy every load but data: URLs and inline styles.
const cspMeta = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:`

// loadAttrs are attributes that make the browser load something (or run script, for
// srcdoc). They are removed from every element; href only from elements other than
// <a> and <area>, where it is a plain link.
var loadAttrs = map[string]bool{
	"src": true, "srcset": true, "data": true, "poster": true, "background": true,
	"srcdoc": true, "ping": true, "lowsrc": true, "dynsrc": true, "codebase": true,
	"archive": true, "manifest": true, "imagesrcset": true, "icon": true,
	"xlink:href": true,
}

// inertPage parses a saved page, marks the elements of the records (recAttr = the
// record's number from 1, extraAttr on the record's extra elements), makes the markup
// inert and serialises it. It returns the XPaths that match nothing and the number of
// elements marked.
func inertPage(page string, records [][]string) (out string, missing []string, marked int, err error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return "", nil, 0, fmt.Errorf("parse the page: %w", err)
	}
	for i, xps := range records {
		for j, xp := range xps {
			n, err := findXPath(doc, xp)
			if err != nil {
				return "", nil, 0, fmt.Errorf("record %d: %w", i+1, err)
			}
			if n == nil {
				missing = append(missing, xp)
				continue
			}
			if hasAttr(n, recAttr) {
				continue // nested or repeated: the first record keeps it
			}
			n.Attr = append(n.Attr, html.Attribute{Key: recAttr, Val: strconv.Itoa(i + 1)}, html.Attribute{Key: "data-trawl-xpath", Val: xp})
			if j > 0 {
				n.Attr = append(n.Attr, html.Attribute{Key: extraAttr})
			}
			marked++
		}
	}
	neutralise(doc)
	var b strings.Builder
	if err := html.Render(&b, doc); err != nil {
		return "", nil, 0, fmt.Errorf("serialise the page: %w", err)
	}
	return b.String(), missing, marked, nil
}

// neutralise removes from the tree everything that would run script or load a resource,
// and puts a Content-Security-Policy and a DNS-prefetch ban into <head>.
func neutralise(doc *html.Node) {
	var head *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && dropElement(c) {
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
		if n.Type != html.ElementNode {
			return
		}
		if n.DataAtom == atom.Head && head == nil {
			head = n
		}
		link := n.DataAtom == atom.A || n.DataAtom == atom.Area
		image := n.DataAtom == atom.Img || n.DataAtom == atom.Source || n.DataAtom == atom.Input || n.DataAtom == atom.Video
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			if a.Namespace != "" {
				k = a.Namespace + ":" + k
			}
			switch {
			case image && (k == "src" || k == "srcset" || k == "poster") && inlineImage(a.Val):
				// an image inlined in the page loads nothing (snapshots inline theirs)
			case strings.HasPrefix(k, "on"), loadAttrs[k], k == "href" && !link:
				continue
			case link && k == "href" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:"):
				continue
			}
			kept = append(kept, a)
		}
		n.Attr = kept
	}
	walk(doc)
	if head == nil {
		return // html.Parse always makes one
	}
	csp := &html.Node{Type: html.ElementNode, Data: "meta", DataAtom: atom.Meta, Attr: []html.Attribute{
		{Key: "http-equiv", Val: "Content-Security-Policy"}, {Key: "content", Val: cspMeta}}}
	dns := &html.Node{Type: html.ElementNode, Data: "meta", DataAtom: atom.Meta, Attr: []html.Attribute{
		{Key: "http-equiv", Val: "x-dns-prefetch-control"}, {Key: "content", Val: "off"}}}
	head.InsertBefore(dns, head.FirstChild)
	head.InsertBefore(csp, head.FirstChild)
}

// inlineImage reports a data: URL of an image: it loads nothing from the network, and as
// the picture of an <img>, <source>, <input type=image> or a poster it runs no script.
func inlineImage(v string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "data:image/")
}

// dropElement reports elements that are removed whole: scripts, <noscript> (shown as
// markup when scripts are off), <base>, <link> (style sheets, preloads, preconnects),
// meta refresh, <portal>.
func dropElement(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Noscript, atom.Base, atom.Link:
		return true
	case atom.Meta:
		return strings.EqualFold(strings.TrimSpace(attr(n, "http-equiv")), "refresh")
	}
	switch strings.ToLower(n.Data) {
	case "script", "portal": // script in SVG has no atom in that namespace
		return true
	}
	return false
}

// xpathStep is one step of an absolute index-qualified XPath: a name with an optional
// 1-based position.
var xpathStep = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_.:-]*)(?:\[([1-9][0-9]{0,6})\])?$`)

// findXPath returns the element an absolute index-qualified XPath such as
// /html[1]/body[1]/div[2]/ul[1]/li[3] designates (positions count the element siblings
// with the same name, 1 when left out), nil when there is none, or an error for an
// XPath of another form.
func findXPath(doc *html.Node, xp string) (*html.Node, error) {
	if !strings.HasPrefix(xp, "/") || strings.HasPrefix(xp, "//") {
		return nil, fmt.Errorf("XPath %q is not an absolute path like /html[1]/body[1]/div[2]", xp)
	}
	n := doc
	for i, step := range strings.Split(xp[1:], "/") {
		m := xpathStep.FindStringSubmatch(step)
		if m == nil {
			return nil, fmt.Errorf("XPath %q: step %d %q is not of the form name[position]", xp, i+1, step)
		}
		pos := 1
		if m[2] != "" {
			pos, _ = strconv.Atoi(m[2]) // at most 7 digits: cannot fail
		}
		var next *html.Node
		for c := n.FirstChild; c != nil && next == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && strings.EqualFold(c.Data, m[1]) {
				if pos--; pos == 0 {
					next = c
				}
			}
		}
		if next == nil {
			return nil, nil
		}
		n = next
	}
	if n == doc {
		return nil, fmt.Errorf("XPath %q names no element", xp)
	}
	return n, nil
}
