package probe

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/internal/testutil"
)

func TestFindXPath(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<html><body><div id=a></div><p>x</p><div id=b><ul><li id=c>1</li><li id=d>2</li></ul></div></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		xp, wantID, wantErr string
	}{
		{"/html[1]/body[1]/div[1]", "a", ""},
		{"/html[1]/body[1]/div[2]", "b", ""},
		{"/html/body/div[2]/ul/li[2]", "d", ""},
		{"/HTML[1]/BODY[1]/DIV[2]/UL[1]/LI[1]", "c", ""},
		{"/html[1]/body[1]/div[3]", "", ""},
		{"/html[1]/body[1]/table[1]/tr[1]", "", ""},
		{"//div", "", "not an absolute path"},
		{"html[1]/body[1]", "", "not an absolute path"},
		{"/html[1]/body[1]/div[last()]", "", `step 3 "div[last()]"`},
		{"/html[1]/body[1]/div[0]", "", `step 3 "div[0]"`},
		{"/html[1]//div[1]", "", `step 2 ""`},
		{"/", "", `step 1 ""`},
	}
	for _, tc := range tests {
		t.Run(tc.xp, func(t *testing.T) {
			n, err := findXPath(doc, tc.xp)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.xp) {
					t.Fatalf("err = %v, want one naming %q and containing %q", err, tc.xp, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if n != nil {
				got = attr(n, "id")
			}
			if got != tc.wantID {
				t.Errorf("found id %q, want %q", got, tc.wantID)
			}
		})
	}
}

// TestInertPage checks that the rendered copy can load nothing and run nothing, and that
// the records are marked.
func TestInertPage(t *testing.T) {
	const page = `<!DOCTYPE html><html><head>
<base href="http://site.test/">
<meta http-equiv="refresh" content="0;url=http://site.test/r">
<link rel="stylesheet" href="http://site.test/s.css"><link rel="preconnect" href="http://site.test">
<script src="http://site.test/app.js"></script><script>while(true){}</script>
<style>.r { color: red }</style>
</head><body onload="for(;;){}" background="http://site.test/bg.png">
<noscript><img src="http://site.test/pixel.gif"></noscript>
<iframe src="http://site.test/frame" srcdoc="<script>1</script>"></iframe><iframe src="data:image/svg+xml,<svg/onload=alert(1)>"></iframe>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="inline">
<object data="http://site.test/o"></object><embed src="http://site.test/e">
<video poster="http://site.test/p.png"><source src="http://site.test/v.mp4"></video>
<svg><image href="http://site.test/a.png" xlink:href="http://site.test/b.png"/><script>1</script></svg>
<ol>
<li class="r"><a href="http://site.test/book/1" ping="http://site.test/ping" onclick="x()">One</a><img src="http://site.test/1.jpg" srcset="http://site.test/1x.jpg 2x" alt="cover"></li>
<li class="r"><a href="javascript:alert(1)">Two</a></li>
<li class="r">Three</li>
</ol>
<dl><dt>Four</dt><dd>four</dd></dl>
</body></html>`
	records := [][]string{
		{"/html[1]/body[1]/ol[1]/li[1]"},
		{"/html[1]/body[1]/ol[1]/li[2]"},
		{"/html[1]/body[1]/ol[1]/li[3]"},
		{"/html[1]/body[1]/dl[1]/dt[1]", "/html[1]/body[1]/dl[1]/dd[1]"},
		{"/html[1]/body[1]/ol[1]/li[9]"},
	}
	out, missing, marked, err := inertPage(page, records)
	if err != nil {
		t.Fatal(err)
	}
	if marked != 5 || len(missing) != 1 || missing[0] != "/html[1]/body[1]/ol[1]/li[9]" {
		t.Errorf("marked %d, missing %v; want 5 and [li[9]]", marked, missing)
	}
	// Nothing in the copy names the site, but the plain links of the records.
	rest := strings.ReplaceAll(out, `href="http://site.test/book/1"`, "")
	if strings.Contains(rest, "site.test") {
		t.Errorf("the inert copy still refers to the site:\n%s", out)
	}
	for _, bad := range []string{"<script", "<noscript", "<base", "<link", "refresh", "onload", "onclick", "javascript:", "srcdoc", "srcset", ` src="http`, "poster", "background="} {
		if strings.Contains(strings.ToLower(out), bad) {
			t.Errorf("the inert copy still has %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{`<meta http-equiv="Content-Security-Policy" content="` + strings.ReplaceAll(cspMeta, "'", "&#39;") + `"/>`, `<style>.r { color: red }</style>`,
		`alt="cover"`, `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="inline"/>`, `<iframe></iframe><iframe></iframe>`, `<li class="r" data-trawl-rec="2"`, `<dd data-trawl-rec="4" data-trawl-xpath="/html[1]/body[1]/dl[1]/dd[1]" data-trawl-extra="">`} {
		if !strings.Contains(out, want) {
			t.Errorf("the inert copy lacks %q:\n%s", want, out)
		}
	}
	// The record elements keep their places: the marked copy parses to the same paths.
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for i, xps := range records[:4] {
		for _, xp := range xps {
			n, err := findXPath(doc, xp)
			if err != nil || n == nil || attr(n, recAttr) != strconv.Itoa(i+1) {
				t.Errorf("%s in the copy: %v, err %v", xp, n, err)
			}
		}
	}

	if _, _, _, err := inertPage(page, [][]string{{"/html[1]/body[1]/ol[1]/li[1]"}, {"//li"}}); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("a bad XPath: err = %v, want one naming record 2", err)
	}
}

func TestShotClip(t *testing.T) {
	tests := []struct {
		name              string
		o                 outlineResult
		wantTop, wantHigh float64
	}{
		{"short page", outlineResult{First: 200, Bottom: 900, Height: 1024}, 0, 1024},
		{"long page, records near the top", outlineResult{First: 300, Bottom: 3000, Height: 12000}, 0, shotMaxHeight},
		{"records far down", outlineResult{First: 6000, Bottom: 7000, Height: 12000}, 6000 - shotMargin, shotMaxHeight},
		{"records far down, page ends soon", outlineResult{First: 6000, Bottom: 7000, Height: 7100}, 6000 - shotMargin, 1100 + shotMargin},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top, h := shotClip(tc.o)
			if top != tc.wantTop || h != tc.wantHigh {
				t.Errorf("clip top %v height %v, want %v %v", top, h, tc.wantTop, tc.wantHigh)
			}
		})
	}
}

// pageTargets counts the browser's page targets (tabs).
func pageTargets(t *testing.T, b *Browser) int {
	t.Helper()
	ts, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ti := range ts {
		if ti.Type == "page" {
			n++
		}
	}
	return n
}

// outlinePixels counts the pixels of the two outline colours in a PNG.
func outlinePixels(t *testing.T, b []byte) (int, image.Image) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			c := [3]uint32{cr >> 8, cg >> 8, cb >> 8}
			if c == [3]uint32{0xe0, 0x00, 0x7a} || c == [3]uint32{0x00, 0x50, 0xd0} {
				n++
			}
		}
	}
	return n, img
}

// TestRecordsScreenshotTestSite renders a saved result page of the bookshop test site
// with its records outlined, and checks that the site received no request meanwhile.
func TestRecordsScreenshotTestSite(t *testing.T) {
	needBrowser(t)
	s, err := testsites.ByName("bookshop")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.NewServer()
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/search?q=the")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var records [][]string
	for _, xp := range markedXPaths(t, string(raw)) {
		records = append(records, []string{xp})
	}
	if len(records) < 5 {
		t.Fatalf("the result page has %d records", len(records))
	}
	page := testsites.StripMarkers(string(raw))

	o := testOptions()
	o.LoadImages = true // the guards must not depend on images being off
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tabs := pageTargets(t, b)
	before := s.Requests()
	shot, err := p.RecordsScreenshot(t.Context(), page, records)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Requests() - before; got != 0 {
		t.Errorf("the site received %d requests during the screenshot, want 0", got)
	}
	if got := pageTargets(t, b); got != tabs {
		t.Errorf("%d tabs after the screenshot, %d before", got, tabs)
	}
	if shot.Records != len(records) || shot.Outlined != len(records) || len(shot.Missing) != 0 || len(shot.Hidden) != 0 {
		t.Errorf("records %d, outlined %d, missing %v, hidden %v; want %d outlined records", shot.Records, shot.Outlined, shot.Missing, shot.Hidden, len(records))
	}
	n, img := outlinePixels(t, shot.PNG)
	if img.Bounds().Dx() != shot.Width || img.Bounds().Dy() != shot.Height {
		t.Errorf("PNG %v, reported %d×%d", img.Bounds(), shot.Width, shot.Height)
	}
	if shot.Width != 1280 || shot.Height < 300 || shot.Height > shotMaxHeight || shot.Top != 0 {
		t.Errorf("PNG %d×%d from y=%d; want 1280 wide, 300–%d high, from the top", shot.Width, shot.Height, shot.Top, shotMaxHeight)
	}
	// Each record's box has a 3-pixel border around a table row some 700 pixels wide
	// (borders of neighbours overlap); the page itself uses neither colour.
	if n < 1500*len(records) {
		t.Errorf("%d outline-coloured pixels for %d records: outlines not drawn", n, len(records))
	}
	if d := os.Getenv("TRAWL_SHOT_DIR"); d != "" { // keep the image for a look
		_ = os.WriteFile(d+"/bookshop.png", shot.PNG, 0o644)
	}
	t.Logf("%d records outlined, %d×%d PNG (%d bytes), %d outline pixels, %d blocked requests", shot.Records, shot.Width, shot.Height, len(shot.PNG), n, shot.Blocked)

	// No record matches: a clear error, still no request and no tab left.
	_, err = p.RecordsScreenshot(t.Context(), page, [][]string{{"/html[1]/body[1]/table[9]/tr[1]"}})
	if err == nil || !strings.Contains(err.Error(), "none of the 1 records' XPaths matches") {
		t.Errorf("no match: err = %v", err)
	}
	if got := s.Requests() - before; got != 0 {
		t.Errorf("the site received %d requests, want 0", got)
	}
}

// counter is a server that counts the requests it receives (and answers each with a
// small body of the right kind).
type counter struct {
	mu   sync.Mutex
	hits []string
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.hits = append(c.hits, r.URL.Path)
	c.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, ".css"):
		w.Header().Set("Content-Type", "text/css")
		_, _ = io.WriteString(w, "body { background: #000 }")
	case strings.HasSuffix(r.URL.Path, ".js"):
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = io.WriteString(w, "while (true) {}")
	default:
		_, _ = io.WriteString(w, "<p>hello</p>")
	}
}

func (c *counter) requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.hits...)
}

// hostilePage is a result page whose scripts would loop forever and fetch from the site,
// and whose markup loads from the site in every way HTML and CSS allow.
func hostilePage(site string) string {
	return fmt.Sprintf(`<!DOCTYPE html><html><head>
<link rel="stylesheet" href="%[1]s/s.css"><link rel="preload" as="fetch" href="%[1]s/preload">
<script src="%[1]s/app.js"></script>
<script>fetch('%[1]s/fetched'); new Image().src = '%[1]s/img.png'; while (true) {}</script>
<style>@import url(%[1]s/import.css); @font-face { font-family: x; src: url(%[1]s/font.woff) }
body { font-family: x; background: url(%[1]s/bg.png) } li { background-image: url(%[1]s/li.png) }</style>
</head><body onload="for (;;) {}">
<iframe src="%[1]s/frame"></iframe><img src="%[1]s/img2.png">
<div style="background:url(%[1]s/inline.png)">Results</div>
<ul>
<li><a href="%[1]s/r/1">First</a> one</li>
<li><a href="%[1]s/r/2">Second</a> two</li>
<li><a href="%[1]s/r/3">Third</a> three</li>
</ul>
<script>document.body.innerHTML = ''; location.href = '%[1]s/away';</script>
</body></html>`, site)
}

// TestRecordsScreenshotHostilePage renders a page whose scripts loop forever and fetch,
// and whose markup and style sheets load from the site: the screenshot is taken, in
// time, and the site sees no request.
func TestRecordsScreenshotHostilePage(t *testing.T) {
	needBrowser(t)
	c := &counter{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	o := testOptions()
	o.LoadImages = true
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	records := [][]string{{"/html[1]/body[1]/ul[1]/li[1]"}, {"/html[1]/body[1]/ul[1]/li[2]"}, {"/html[1]/body[1]/ul[1]/li[3]"}}
	start := time.Now()
	shot, err := p.RecordsScreenshot(t.Context(), hostilePage(srv.URL), records)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > o.StepTimeout {
		t.Errorf("took %v, more than the step timeout", d)
	}
	if shot.Outlined != 3 || shot.Records != 3 {
		t.Errorf("outlined %d elements of %d records, want 3", shot.Outlined, shot.Records)
	}
	if n, _ := outlinePixels(t, shot.PNG); n < 1000 {
		t.Errorf("%d outline pixels: outlines not drawn", n)
	}
	if hits := c.requests(); len(hits) != 0 {
		t.Errorf("the site received %d requests: %v", len(hits), hits)
	}
}

// TestInertTabAlone renders the hostile page WITHOUT making its markup inert: the tab's
// own guards (scripts off, every request failed) must be enough on their own.
func TestInertTabAlone(t *testing.T) {
	needBrowser(t)
	c := &counter{}
	srv := httptest.NewServer(c)
	defer srv.Close()
	o := testOptions()
	o.LoadImages = true
	b := startBrowser(t, o)
	page := strings.Replace(hostilePage(srv.URL), "<li>", `<li data-trawl-rec="1">`, 1)
	it, err := b.newInertTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer it.close()
	ctx, cancel := context.WithTimeout(it.ctx, o.StepTimeout)
	defer cancel()
	res, err := it.render(ctx, page, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.outlined != 1 {
		t.Errorf("outlined %d, want 1 (the page's scripts ran?)", res.outlined)
	}
	if _, err := png.Decode(bytes.NewReader(res.png)); err != nil {
		t.Errorf("not a PNG: %v", err)
	}
	if hits := c.requests(); len(hits) != 0 {
		t.Errorf("the site received %d requests: %v", len(hits), hits)
	}
	if it.blocked.Load() == 0 {
		t.Errorf("no request was intercepted: the page's style sheets and images should have been")
	}
	if it.leaked.Load() != 0 {
		t.Errorf("%d responses leaked (first %v)", it.leaked.Load(), it.leakedURL.Load())
	}
	t.Logf("%d requests intercepted and failed", it.blocked.Load())

	// The leak detector works: with the interception turned off, a style sheet of
	// the site loads and is seen.
	it2, err := b.newInertTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer it2.close()
	ctx2, cancel2 := context.WithTimeout(it2.ctx, o.StepTimeout)
	defer cancel2()
	if _, err := chromedp.Call(ctx2, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	leak := `<html><head><link rel="stylesheet" href="` + srv.URL + `/leak.css"></head><body><p data-trawl-rec="1">x</p></body></html>`
	if _, err := it2.render(ctx2, leak, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if it2.leaked.Load() != 1 || !strings.HasSuffix(fmt.Sprint(it2.leakedURL.Load()), "/leak.css") {
		t.Errorf("leak detector: %d responses (first %v), want the style sheet", it2.leaked.Load(), it2.leakedURL.Load())
	}
}

// markedXPaths returns the XPaths of the elements that carry the test sites' data-record
// answer key, in document order.
func markedXPaths(t testing.TB, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && hasAttr(n, testsites.RecordAttr) {
			var steps []string
			for c := n; c != nil && c.Type == html.ElementNode; c = c.Parent {
				k := 1
				for s := c.PrevSibling; s != nil; s = s.PrevSibling {
					if s.Type == html.ElementNode && s.Data == c.Data {
						k++
					}
				}
				steps = append([]string{c.Data + "[" + strconv.Itoa(k) + "]"}, steps...)
			}
			out = append(out, "/"+strings.Join(steps, "/"))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// nextEvalPages loads the NEXT-EVAL sample: real list pages (Blink snapshots) with the
// XPaths of their records (several for a record made of sibling nodes).
func nextEvalPages(t testing.TB) (names []string, pages []string, truth [][][]string) {
	t.Helper()
	dir := testutil.SharedData(t, "next-eval-sample")
	files, err := filepath.Glob(filepath.Join(dir, "groundTruth", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ground truth in %s: %v", dir, err)
	}
	slices.SortFunc(files, func(a, b string) int { return cmpNum(a) - cmpNum(b) })
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var recs [][]string
		if err := json.Unmarshal(raw, &recs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range recs {
			for k := range r {
				r[k] = "/html[1]" + r[k] // the set's XPaths start at /body[1]
			}
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		gz, err := os.Open(filepath.Join(dir, "html", name+".html.gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(gz)
		if err != nil {
			t.Fatalf("%s: %v", gz.Name(), err)
		}
		page, err := io.ReadAll(zr)
		_ = gz.Close()
		if err != nil {
			t.Fatalf("%s: %v", gz.Name(), err)
		}
		names, pages, truth = append(names, name), append(pages, string(page)), append(truth, recs)
	}
	return names, pages, truth
}

func cmpNum(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(filepath.Base(path), ".json"))
	return n
}

// nextEvalShown are the NEXT-EVAL pages TestRecordsScreenshotNextEval renders (about a
// second each): a spread of the sample, the four pages whose records span sibling nodes
// (9, 33, 37, 161) and page 49, whose list hides 35 of its 43 records with display:none.
// Set it to nil to render all 41.
var nextEvalShown = map[string]bool{"1": true, "9": true, "33": true, "37": true, "49": true, "73": true, "121": true, "161": true}

// TestRecordsScreenshotNextEval outlines the true records of real list pages of the
// NEXT-EVAL sample: every XPath must resolve on the saved page and nearly every record
// must get a box.
func TestRecordsScreenshotNextEval(t *testing.T) {
	needBrowser(t)
	names, pages, truth := nextEvalPages(t)
	if nextEvalShown != nil {
		var n []string
		var pg []string
		var tr [][][]string
		for i := range names {
			if nextEvalShown[names[i]] {
				n, pg, tr = append(n, names[i]), append(pg, pages[i]), append(tr, truth[i])
			}
		}
		names, pages, truth = n, pg, tr
	}
	o := testOptions()
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var xpaths, missing, hidden, outlined, recs, shown, blocked int
	var elapsed time.Duration
	for i, page := range pages {
		for _, r := range truth[i] {
			xpaths += len(r)
		}
		recs += len(truth[i])
		start := time.Now()
		shot, err := p.RecordsScreenshot(t.Context(), page, truth[i])
		elapsed += time.Since(start)
		if err != nil {
			t.Errorf("page %s: %v", names[i], err)
			continue
		}
		if d := os.Getenv("TRAWL_SHOT_DIR"); d != "" { // keep the images for a look
			_ = os.WriteFile(filepath.Join(d, "next-eval-"+names[i]+".png"), shot.PNG, 0o644)
		}
		missing += len(shot.Missing)
		hidden += len(shot.Hidden)
		outlined += shot.Outlined
		shown += shot.Records
		blocked += shot.Blocked
		if len(shot.Hidden) > 0 || shot.Records < len(truth[i]) {
			t.Logf("page %s: %d of %d records outlined, %d XPaths hidden (first %s)", names[i], shot.Records, len(truth[i]), len(shot.Hidden), slices.Concat(shot.Hidden, []string{""})[0])
		}
		if shot.Width < 800 || shot.Height < 100 || shot.Height > shotMaxHeight {
			t.Errorf("page %s: PNG %d×%d", names[i], shot.Width, shot.Height)
		}
	}
	t.Logf("%d pages, %d records (%d XPaths): %d records outlined (%d elements), %d XPaths missing, %d hidden; %d requests blocked; %v per page",
		len(pages), recs, xpaths, shown, outlined, missing, hidden, blocked, (elapsed / time.Duration(len(pages))).Round(time.Millisecond))
	if missing != 0 {
		t.Errorf("%d XPaths of the ground truth do not resolve on the saved pages", missing)
	}
	if float64(shown) < 0.95*float64(recs) {
		t.Errorf("%d of %d records outlined, want ≥ 95 %%", shown, recs)
	}
}

// BenchmarkRecordsScreenshot measures one records screenshot (tab opened, page set,
// records outlined, PNG captured, tab closed) of a bookshop result page (20 table rows)
// and of the largest NEXT-EVAL page (161: 421 records over 4 columns, 15 KB of text).
func BenchmarkRecordsScreenshot(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	s, err := testsites.ByName("bookshop")
	if err != nil {
		b.Fatal(err)
	}
	srv := s.NewServer()
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/search?q=the")
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	var shop [][]string
	for _, xp := range markedXPaths(b, string(raw)) {
		shop = append(shop, []string{xp})
	}
	names, pages, truth := nextEvalPages(b)
	i161 := slices.Index(names, "161")
	if i161 < 0 {
		b.Fatal("NEXT-EVAL page 161 missing")
	}
	cases := []struct {
		name    string
		page    string
		records [][]string
	}{
		{"bookshop", testsites.StripMarkers(string(raw)), shop},
		{"nexteval-161", pages[i161], truth[i161]},
	}
	o := testOptions()
	o.Logger = nil
	br, err := Start(b.Context(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	p, err := NewProber(br, o)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var size int
			for b.Loop() {
				shot, err := p.RecordsScreenshot(b.Context(), c.page, c.records)
				if err != nil {
					b.Fatal(err)
				}
				size = len(shot.PNG)
			}
			b.ReportMetric(float64(size), "png-bytes")
		})
	}
}

// TestRecordsScreenshotFarDown: records below the first 4000 pixels of a long page are
// captured from just above the first one, with their outlines in the image.
func TestRecordsScreenshotFarDown(t *testing.T) {
	needBrowser(t)
	o := testOptions()
	b := startBrowser(t, o)
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	page := `<html><body style="margin:0"><div style="height:6000px">spacer</div><ul style="margin:0;padding:0">` +
		strings.Repeat(`<li style="width:600px;height:40px">a record</li>`, 5) +
		`</ul><div style="height:9000px"></div></body></html>`
	var records [][]string
	for i := 1; i <= 5; i++ {
		records = append(records, []string{fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", i)})
	}
	shot, err := p.RecordsScreenshot(t.Context(), page, records)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Top != 6000-shotMargin || shot.Height != shotMaxHeight || shot.Outlined != 5 {
		t.Errorf("top %d, height %d, outlined %d; want %d, %d, 5", shot.Top, shot.Height, shot.Outlined, 6000-shotMargin, shotMaxHeight)
	}
	n, img := outlinePixels(t, shot.PNG)
	if n < 5*1000 {
		t.Errorf("%d outline pixels in the image, want the 5 boxes", n)
	}
	// The first box's top border is shotMargin-2 pixels below the image's top.
	if y := shotMargin - 1; !isOutline(img.At(100, y)) {
		t.Errorf("pixel (100,%d) is %v, want an outline colour", y, img.At(100, y))
	}
}

func isOutline(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, g, b, _ := c.RGBA()
	v := [3]uint32{r >> 8, g >> 8, b >> 8}
	return v == [3]uint32{0xe0, 0x00, 0x7a} || v == [3]uint32{0x00, 0x50, 0xd0}
}
