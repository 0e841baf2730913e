package probe

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// Page is one page as the browser shows it after its scripts ran.
type Page struct {
	// URL is the page's final URL (after redirects); Status its HTTP status (0 when the
	// content came without navigation).
	URL    string
	Status int
	// HTML is the DOM serialised after the page settled (doctype + outerHTML).
	HTML string
	// Navigated is false for results rendered in place by scripts.
	Navigated bool
	// Screenshot is a PNG of the page, when one was asked for.
	Screenshot []byte
	// Elapsed is the time from the trigger (submission, click on "next") to the page
	// being read.
	Elapsed time.Duration
	// Warnings: the page did not settle, dialogs were closed, pagination stopped early.
	Warnings []string
	// Via says how the page was fetched: ViaBrowser (also when empty) or ViaHTTP.
	Via string
}

// submission is the outcome of one probe: its pages and how it was triggered.
type submission struct {
	Pages     []Page
	Trigger   string
	Navigated bool
	Warnings  []string
}

// fieldSpec is one control for fillJS.
type fieldSpec struct {
	Name  string `json:"name"`
	ID    string `json:"id"`
	XPath string `json:"xpath"`
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// fillKind says how a field is set: typed (text), chosen (select, radio, checkbox) or
// assigned directly (value: date, color, hidden…).
func fillKind(fd Field) string {
	switch fd.Type {
	case "select", "select-one", "select-multiple":
		return "select"
	case "radio":
		return "radio"
	case "checkbox":
		return "checkbox"
	case "", "text", "search", "textarea", "email", "url", "tel", "number", "password":
		return "text"
	}
	return "value"
}

// fillSpecs builds the specs of an assignment in form order. The error names the first
// field the form does not have.
func fillSpecs(f Form, values map[string]string) ([]fieldSpec, error) {
	var specs []fieldSpec
	done := map[string]bool{}
	for _, fd := range f.Fields {
		v, ok := values[fd.Name]
		if !ok || done[fd.Name] || fd.Submit {
			continue
		}
		done[fd.Name] = true
		specs = append(specs, fieldSpec{Name: fd.Name, ID: fd.ID, XPath: fd.XPath, Kind: fillKind(fd), Value: v})
	}
	for name := range values {
		if !done[name] {
			return nil, fmt.Errorf("field %q is not a control of the form (fields: %s)", name, strings.Join(fieldNames(f), ", "))
		}
	}
	return specs, nil
}

// submitControl returns the form's first submit control, if it lists one.
func submitControl(f Form) *fieldSpec {
	for _, fd := range f.Fields {
		if fd.Submit {
			return &fieldSpec{Name: fd.Name, ID: fd.ID, XPath: fd.XPath}
		}
	}
	return nil
}

// submit opens the form's page in tab t, fills the assignment like a person (typing
// into text boxes, choosing options), submits (clicking the submit control, else
// pressing Enter, else requestSubmit), waits for the result page (a navigation, or
// the DOM updated in place), reads it, and follows "next" links up to maxPages pages.
// Each step has its own StepTimeout. Pages read before an error are returned with it.
func (p *Prober) submit(ctx context.Context, t *tab, f Form, values map[string]string, maxPages int, shot bool) (submission, error) {
	var sub submission
	specs, err := fillSpecs(f, values)
	if err != nil {
		return sub, err
	}
	pu, err := url.Parse(f.PageURL)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return sub, fmt.Errorf("the form's page URL %q is not an http(s) URL", f.PageURL)
	}
	t.setOrigin(originOf(pu))
	o := p.opts

	// 1. Open the form's page (a fresh CSRF token and session cookie come with it).
	sctx, cancel := t.stepCtx(ctx, o.StepTimeout)
	sr, err := t.navigate(sctx, f.PageURL)
	cancel()
	if err != nil {
		return sub, err
	}
	sub.Warnings = append(sub.Warnings, sr.Warnings...)

	// 2. Fill, submit, wait, read.
	sctx, cancel = t.stepCtx(ctx, o.StepTimeout)
	defer cancel()
	type fillResult struct {
		Found  bool     `json:"found"`
		Errors []string `json:"errors"`
		Text   []int    `json:"text"`
	}
	fr, err := eval[fillResult](sctx, t, jsBody(fillJS, jsJSON(struct {
		Form   string      `json:"form"`
		Fields []fieldSpec `json:"fields"`
	}{f.XPath, orEmpty(specs)})))
	if err != nil {
		return sub, fmt.Errorf("fill the form at %s: %w", f.PageURL, err)
	}
	if !fr.Found || len(fr.Errors) > 0 {
		return sub, fmt.Errorf("fill the form at %s: %s", f.PageURL, strings.Join(fr.Errors, "; "))
	}
	var texts []fieldSpec
	for _, s := range specs {
		if s.Kind == "text" {
			texts = append(texts, s)
		}
	}
	for i, s := range texts {
		if i >= len(fr.Text) {
			break
		}
		if ok, err := eval[bool](sctx, t, fmt.Sprintf(focusJS, fr.Text[i])); err != nil || !ok {
			return sub, fmt.Errorf("focus field %q: %v", s.Name, errOr(err, "it does not take the focus"))
		}
		if s.Value != "" {
			if err := chromedp.Do(sctx, chromedp.KeyEvent(s.Value)); err != nil {
				return sub, fmt.Errorf("type into field %q: %w", s.Name, err)
			}
		}
		got, err := eval[*string](sctx, t, jsBody(checkJS, fr.Text[i], s.Value))
		if err != nil {
			return sub, fmt.Errorf("check field %q: %w", s.Name, err)
		}
		if got == nil || *got != s.Value {
			return sub, fmt.Errorf("field %q does not keep the value %q (it holds %q)", s.Name, s.Value, deref(got))
		}
	}
	if msg, err := eval[string](sctx, t, jsBody(validateJS, f.XPath)); err != nil {
		return sub, fmt.Errorf("validate the form at %s: %w", f.PageURL, err)
	} else if msg != "" {
		return sub, fmt.Errorf("the browser refuses the values (%s)", msg)
	}
	kwIndex := -1
	if len(fr.Text) > 0 {
		kwIndex = fr.Text[0]
	}
	type how struct {
		How string  `json:"how"`
		Why string  `json:"why"`
		X   float64 `json:"x"`
		Y   float64 `json:"y"`
		Hit bool    `json:"hit"`
	}
	trig, err := eval[how](sctx, t, jsBody(triggerJS, jsJSON(struct {
		Form   string     `json:"form"`
		Submit *fieldSpec `json:"submit"`
		Text   int        `json:"text"`
	}{f.XPath, submitControl(f), kwIndex})))
	if err != nil {
		return sub, fmt.Errorf("find the submit control at %s: %w", f.PageURL, err)
	}
	token := newToken()
	seq0, _, _ := t.navState()
	if ok, err := eval[bool](sctx, t, fmt.Sprintf(markJS, token)); err != nil || !ok {
		return sub, fmt.Errorf("mark the form page: %v", errOr(err, "the page hooks are missing"))
	}
	start := time.Now()
	switch trig.How {
	case "click":
		sub.Trigger = "click"
		if trig.Hit {
			err = chromedp.Do(sctx, chromedp.MouseClickXY(trig.X, trig.Y))
		} else {
			_, err = eval[bool](sctx, t, fmt.Sprintf(clickStashedJS, "__trawlSubmit"))
		}
	case "enter":
		sub.Trigger = "enter"
		if _, err = eval[bool](sctx, t, fmt.Sprintf(focusJS, kwIndex)); err == nil {
			err = chromedp.Do(sctx, chromedp.KeyEvent("\r"))
		}
	case "submit":
		sub.Trigger = "submit"
		_, err = eval[bool](sctx, t, jsBody(requestSubmitJS, f.XPath))
	default:
		return sub, fmt.Errorf("cannot submit the form: %s", trig.Why)
	}
	if err != nil && !transient(err) {
		return sub, fmt.Errorf("submit (%s): %w", sub.Trigger, err)
	}
	res, err := t.waitSettled(sctx, token, seq0, 3*time.Second)
	if err != nil {
		return sub, fmt.Errorf("after submitting (%s): %w", sub.Trigger, err)
	}
	sub.Navigated = res.Navigated
	pg, err := t.capture(sctx, res.Navigated)
	if err != nil {
		return sub, fmt.Errorf("read the result page: %w", err)
	}
	pg.Elapsed = time.Since(start)
	pg.Warnings = append(res.Warnings, pg.Warnings...)
	if shot {
		if png, err := t.screenshot(sctx, ""); err == nil {
			pg.Screenshot = png
		} else {
			pg.Warnings = append(pg.Warnings, "screenshot: "+err.Error())
		}
	}
	sub.Pages = append(sub.Pages, pg)
	cancel()

	// 3. Follow "next" links.
	seen := map[[32]byte]bool{sha256.Sum256([]byte(pg.HTML)): true}
	visited := map[string]bool{stripFragment(pg.URL): true}
	origin := originOf(pu)
	for k := 1; k < maxPages; k++ {
		if ctx.Err() != nil {
			return sub, ctx.Err()
		}
		pg, stop, err := p.next(ctx, t, f, k, sub.Pages[len(sub.Pages)-1].URL, origin, visited, seen)
		if err != nil {
			sub.Warnings = append(sub.Warnings, fmt.Sprintf("page %d: %v", k+1, err))
			if errors.Is(err, ErrUnresponsive) {
				return sub, nil
			}
			break
		}
		if stop != "" {
			if k > 0 && stop != "no next link" {
				sub.Warnings = append(sub.Warnings, fmt.Sprintf("pagination stopped after page %d: %s", k, stop))
			}
			break
		}
		sub.Pages = append(sub.Pages, pg)
	}
	return sub, nil
}

// next follows the "next" control of result page k (1-based). It returns a stop reason
// instead of a page when there is none to follow.
func (p *Prober) next(ctx context.Context, t *tab, f Form, k int, current, origin string, visited map[string]bool, seen map[[32]byte]bool) (Page, string, error) {
	sctx, cancel := t.stepCtx(ctx, p.opts.StepTimeout)
	defer cancel()
	type nextInfo struct {
		Found bool    `json:"found"`
		How   string  `json:"how"`
		Href  string  `json:"href"`
		Text  string  `json:"text"`
		X     float64 `json:"x"`
		Y     float64 `json:"y"`
		Hit   bool    `json:"hit"`
	}
	nx, err := eval[nextInfo](sctx, t, jsBody(nextJS, k, f.XPath))
	if err != nil {
		return Page{}, "", fmt.Errorf("look for a next link: %w", err)
	}
	if !nx.Found {
		return Page{}, "no next link", nil
	}
	// A link to the page itself ("#", "javascript:") is a script control: no URL checks.
	if h := nx.Href; h != "" && !strings.HasPrefix(h, "javascript:") && stripFragment(h) != stripFragment(current) {
		u, err := url.Parse(h)
		if err != nil {
			return Page{}, fmt.Sprintf("bad next link %q", h), nil
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return Page{}, fmt.Sprintf("next link %q is not http(s)", h), nil
		}
		if originOf(u) != origin {
			return Page{}, fmt.Sprintf("next link %s leaves the origin %s", h, origin), nil
		}
		if visited[stripFragment(h)] {
			return Page{}, "the next link leads to a page already read", nil
		}
	}
	token := newToken()
	seq0, _, _ := t.navState()
	if ok, err := eval[bool](sctx, t, fmt.Sprintf(markJS, token)); err != nil || !ok {
		return Page{}, "", fmt.Errorf("mark the page: %v", errOr(err, "the page hooks are missing"))
	}
	start := time.Now()
	var res settleResult
	switch {
	case nx.How == "goto":
		res, err = t.navigate(sctx, nx.Href)
	default:
		if nx.Hit {
			err = chromedp.Do(sctx, chromedp.MouseClickXY(nx.X, nx.Y))
		} else {
			_, err = eval[bool](sctx, t, fmt.Sprintf(clickStashedJS, "__trawlNext"))
		}
		if err != nil && !transient(err) {
			return Page{}, "", fmt.Errorf("click %q: %w", nx.Text, err)
		}
		res, err = t.waitSettled(sctx, token, seq0, 3*time.Second)
		// A click that changed nothing on a link to another page of the site (the click
		// landed while the page was still moving, or an overlay took it): follow the link
		// as a person would by opening its address.
		if err != nil && strings.Contains(err.Error(), "changed nothing") && nx.Href != "" &&
			!strings.HasPrefix(nx.Href, "javascript:") && stripFragment(nx.Href) != stripFragment(current) {
			p.log.Debug("next link click changed nothing; opening its address", "href", nx.Href)
			res, err = t.navigate(sctx, nx.Href)
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "changed nothing") {
			return Page{}, fmt.Sprintf("the next control %q does nothing", nx.Text), nil
		}
		return Page{}, "", err
	}
	pg, err := t.capture(sctx, res.Navigated)
	if err != nil {
		return Page{}, "", err
	}
	pg.Elapsed = time.Since(start)
	pg.Warnings = append(res.Warnings, pg.Warnings...)
	h := sha256.Sum256([]byte(pg.HTML))
	if seen[h] {
		return Page{}, "the next page repeats a page already read", nil
	}
	seen[h] = true
	if pg.Navigated && nx.Href != "" { // a link: its target URL names the page (a POST result page does not)
		if visited[stripFragment(pg.URL)] {
			return Page{}, "the next link leads to a page already read", nil
		}
		visited[stripFragment(pg.URL)] = true
	}
	return pg, "", nil
}

func stripFragment(s string) string {
	s, _, _ = strings.Cut(s, "#")
	return s
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

func deref(s *string) string {
	if s == nil {
		return "<nothing>"
	}
	return *s
}
