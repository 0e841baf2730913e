package probe

import (
	"context"
	"crypto/sha256"
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
	// Filled is how many text boxes of the form held text when it was submitted
	// (textFilledJS), -1 when unknown.
	Filled int
	// openSeq and openSig are the tab's document count and the page's signature
	// (pageSigJS) when the form page was opened, before the form was filled.
	openSeq int
	openSig string
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
// assigned directly (value: numbers, dates, colours, hidden inputs…). Only boxes that
// take free text are typed into.
func fillKind(fd Field) string {
	switch fd.Type {
	case "select", "select-one", "select-multiple":
		return "select"
	case "radio":
		return "radio"
	case "checkbox":
		return "checkbox"
	case "", "text", "search", "textarea", "email", "url", "tel", "password":
		return "text"
	}
	return "value"
}

// fillSpecs builds the specs of an assignment in form order. The error names the first
// field the form does not have, or the first value its field does not admit (CheckValue:
// a word for a number, date or hidden field is refused before the browser sees it).
func fillSpecs(f Form, values map[string]string) ([]fieldSpec, error) {
	var specs []fieldSpec
	done := map[string]bool{}
	for _, fd := range f.Fields {
		v, ok := values[fd.Name]
		if !ok || done[fd.Name] || fd.Submit {
			continue
		}
		if err := CheckValue(fd, v); err != nil {
			return nil, err
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
// the DOM updated in place), reads and checks it, and follows "next" links up to
// maxPages pages. Each step has its own StepTimeout. Pages read before an error are
// returned with it. A first result page that cannot count (empty, head-only, without
// a status, the form page unchanged) gives an error wrapping errCapture.
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
	if err := p.openForm(ctx, t, f, originOf(pu), &sub); err != nil {
		return sub, err
	}
	sctx, cancel := t.stepCtx(ctx, p.opts.StepTimeout)
	defer cancel()
	kw, err := p.fill(sctx, t, f, specs, &sub)
	if err != nil {
		return sub, err
	}
	pg, err := p.trigger(sctx, t, f, kw, &sub)
	if err != nil {
		return sub, err
	}
	if shot {
		if png, err := t.screenshot(sctx, ""); err == nil {
			pg.Screenshot = png
		} else {
			pg.Warnings = append(pg.Warnings, "screenshot: "+err.Error())
		}
	}
	sub.Pages = append(sub.Pages, pg)
	cancel()
	return sub, p.paginate(ctx, t, f, originOf(pu), maxPages, &sub)
}

// openForm opens the form's page as a first visit: the tab forgets the cookies and
// storage earlier probes left (forget), and a fresh CSRF token and session cookie come
// with the page.
func (p *Prober) openForm(ctx context.Context, t *tab, f Form, origin string, sub *submission) error {
	sctx, cancel := t.stepCtx(ctx, p.opts.StepTimeout)
	defer cancel()
	if err := t.forget(sctx, origin); err != nil {
		return err
	}
	sr, err := t.navigate(sctx, f.PageURL)
	if err != nil {
		return err
	}
	sub.Warnings = append(sub.Warnings, sr.Warnings...)
	sub.openSeq, _, _ = t.navState()
	sig, err := eval[string](sctx, t, pageSigJS+"()")
	if err != nil {
		return fmt.Errorf("read the form page %s: %w", f.PageURL, err)
	}
	sub.openSig = sig
	return nil
}

// fillResult is what fillJS returns.
type fillResult struct {
	Found  bool     `json:"found"`
	Errors []string `json:"errors"`
	Text   []int    `json:"text"`
}

// fill reveals the fields the assignment sets when a collapsed panel, disclosure or
// tab hides them (clicking the control that opens it), sets the choices and values,
// and types into the text boxes. It returns the index of the keyword box among the
// typed controls (-1: none).
func (p *Prober) fill(ctx context.Context, t *tab, f Form, specs []fieldSpec, sub *submission) (int, error) {
	opened, err := p.reveal(ctx, t, f, specs)
	if err != nil {
		return -1, err
	}
	if len(opened) > 0 {
		sub.Warnings = append(sub.Warnings, "opened to reach the fields: "+strings.Join(opened, ", "))
	}
	fr, err := eval[fillResult](ctx, t, jsBody(fillJS, jsJSON(struct {
		Form   string      `json:"form"`
		Fields []fieldSpec `json:"fields"`
	}{f.XPath, orEmpty(specs)})))
	if err != nil {
		return -1, fmt.Errorf("fill the form at %s: %w", f.PageURL, err)
	}
	if !fr.Found || len(fr.Errors) > 0 {
		return -1, fmt.Errorf("fill the form at %s: %s", f.PageURL, strings.Join(fr.Errors, "; "))
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
		if err := typeInto(ctx, t, fr.Text[i], s); err != nil {
			return -1, err
		}
	}
	if msg, err := eval[string](ctx, t, jsBody(validateJS, f.XPath)); err != nil {
		return -1, fmt.Errorf("validate the form at %s: %w", f.PageURL, err)
	} else if msg != "" {
		return -1, fmt.Errorf("the browser refuses the values (%s)", msg)
	}
	if len(fr.Text) > 0 {
		return fr.Text[0], nil
	}
	return -1, nil
}

// typeInto focuses text control i of the page's fill list, types the value with key
// events and makes sure the control holds it.
func typeInto(ctx context.Context, t *tab, i int, s fieldSpec) error {
	if ok, err := eval[bool](ctx, t, fmt.Sprintf(focusJS, i)); err != nil || !ok {
		return fmt.Errorf("focus field %q: %v", s.Name, errOr(err, "it does not take the focus"))
	}
	if s.Value != "" {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(s.Value)); err != nil {
			return fmt.Errorf("type into field %q: %w", s.Name, err)
		}
	}
	got, err := eval[*string](ctx, t, jsBody(checkJS, i, s.Value))
	if err != nil {
		return fmt.Errorf("check field %q: %w", s.Name, err)
	}
	if got == nil || *got != s.Value {
		return fmt.Errorf("field %q does not keep the value %q (it holds %q)", s.Name, s.Value, deref(got))
	}
	return nil
}

// revealStep is what revealJS returns: the control to click to show a hidden field.
type revealStep struct {
	Field   string  `json:"field"`   // the field it reveals
	Control string  `json:"control"` // the control's text, for messages
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Hit     bool    `json:"hit"`
	Details bool    `json:"details"` // a <details> element opened by script
}

// maxReveals bounds the controls clicked to reveal the fields of one submission
// (nested panels, tabs).
const maxReveals = 6

// reveal clicks, as a person would, the controls that open the collapsed panels,
// <details> disclosures and tabs holding fields of the assignment that are not
// visible, waiting after each click until the page is quiet. It returns the texts of
// the controls it clicked. Fields that nothing reveals are left as they are: a hidden
// input is set without being shown, and a text box that stays hidden fails to take the
// focus with a message that names it.
func (p *Prober) reveal(ctx context.Context, t *tab, f Form, specs []fieldSpec) ([]string, error) {
	var opened []string
	for range maxReveals {
		st, err := eval[*revealStep](ctx, t, jsBody(revealJS, jsJSON(struct {
			Form   string      `json:"form"`
			Fields []fieldSpec `json:"fields"`
		}{f.XPath, orEmpty(specs)})))
		if err != nil {
			return opened, fmt.Errorf("look for the controls that show the fields: %w", err)
		}
		if st == nil {
			return opened, nil
		}
		token := newToken()
		seq0, _, _ := t.navState()
		if m, err := eval[markResult](ctx, t, fmt.Sprintf(markJS, token)); err != nil || !m.OK {
			return opened, fmt.Errorf("mark the form page: %v", errOr(err, "the page hooks are missing"))
		}
		if !st.Details {
			if st.Hit {
				err = chromedp.Do(ctx, chromedp.MouseClickXY(st.X, st.Y))
			} else {
				_, err = eval[bool](ctx, t, fmt.Sprintf(clickStashedJS, "__trawlReveal"))
			}
			if err != nil {
				return opened, fmt.Errorf("click %q to show field %q: %w", st.Control, st.Field, err)
			}
		}
		opened = append(opened, fmt.Sprintf("%q (for field %q)", st.Control, st.Field))
		res, err := t.waitSettled(ctx, token, seq0, p.opts.Quiet+p.pol.limits.script()/4, 0)
		if err != nil && !strings.Contains(err.Error(), "changed nothing") {
			return opened, fmt.Errorf("after clicking %q to show field %q: %w", st.Control, st.Field, err)
		}
		if res.Navigated {
			return opened, fmt.Errorf("clicking %q to show field %q left the form page", st.Control, st.Field)
		}
	}
	return opened, nil
}

// markResult is what markJS returns.
type markResult struct {
	OK  bool   `json:"ok"`
	Sig string `json:"sig"`
}

// trigger submits the filled form, waits until the result settled and reads it. The
// result must count as a page (captureChecked), and must differ from the form page as
// it was just before the submission.
func (p *Prober) trigger(ctx context.Context, t *tab, f Form, kwIndex int, sub *submission) (Page, error) {
	type how struct {
		How string  `json:"how"`
		Why string  `json:"why"`
		X   float64 `json:"x"`
		Y   float64 `json:"y"`
		Hit bool    `json:"hit"`
	}
	// Scripts that answer typing (suggestions, live search) finish before the
	// submission, so that their changes are not taken for the result. A page that
	// never settles (a ticker, a long poll) is waited for a quarter of the step at
	// most: the rest is for the result.
	if _, err := t.waitSettled(ctx, "", 0, 0, p.opts.StepTimeout/4); err != nil {
		return Page{}, fmt.Errorf("wait for the filled form to settle: %w", err)
	}
	trig, err := eval[how](ctx, t, jsBody(triggerJS, jsJSON(struct {
		Form   string     `json:"form"`
		Submit *fieldSpec `json:"submit"`
		Text   int        `json:"text"`
	}{f.XPath, submitControl(f), kwIndex})))
	if err != nil {
		return Page{}, fmt.Errorf("find the submit control at %s: %w", f.PageURL, err)
	}
	sub.Filled = -1
	if n, err := eval[int](ctx, t, jsBody(textFilledJS, f.XPath)); err == nil {
		sub.Filled = n
	}
	token := newToken()
	seq0, _, _ := t.navState()
	m, err := eval[markResult](ctx, t, fmt.Sprintf(markJS, token))
	if err != nil || !m.OK {
		return Page{}, fmt.Errorf("mark the form page: %v", errOr(err, "the page hooks are missing"))
	}
	formSig := m.Sig
	if seq0 != sub.openSeq && sub.openSig != "" {
		// Filling the form loaded another document: a control submits the form when
		// it changes (onchange="this.form.submit()", Fossil's timeline). The page now
		// shows the submitted values, so the submission below gives it again: what
		// it must differ from is the form page as it was opened.
		formSig = sub.openSig
		sub.Warnings = append(sub.Warnings, "the form submitted itself while it was filled (a control's change handler); the result is compared with the form page as it was opened")
	}
	start := time.Now()
	switch trig.How {
	case "click":
		sub.Trigger = "click"
		if trig.Hit {
			err = chromedp.Do(ctx, chromedp.MouseClickXY(trig.X, trig.Y))
		} else {
			_, err = eval[bool](ctx, t, fmt.Sprintf(clickStashedJS, "__trawlSubmit"))
		}
	case "enter":
		sub.Trigger = "enter"
		if _, err = eval[bool](ctx, t, fmt.Sprintf(focusJS, kwIndex)); err == nil {
			err = chromedp.Do(ctx, chromedp.KeyEvent("\r"))
		}
	case "submit":
		sub.Trigger = "submit"
		_, err = eval[bool](ctx, t, jsBody(requestSubmitJS, f.XPath))
	default:
		return Page{}, fmt.Errorf("cannot submit the form: %s", trig.Why)
	}
	if err != nil && !transient(err) {
		return Page{}, fmt.Errorf("submit (%s): %w", sub.Trigger, err)
	}
	res, err := t.waitSettled(ctx, token, seq0, p.pol.limits.script(), 0)
	if err != nil {
		return Page{}, fmt.Errorf("after submitting (%s): %w", sub.Trigger, err)
	}
	sub.Navigated = res.Navigated
	pg, _, err := t.captureChecked(ctx, res.Navigated, formSig)
	pg.Elapsed = time.Since(start)
	pg.Warnings = append(res.Warnings, pg.Warnings...)
	if err != nil {
		return pg, fmt.Errorf("read the result page: %w", err)
	}
	return pg, nil
}

// paginate follows the "next" controls of the last page of sub until maxPages pages,
// a page already read, or an error (which ends pagination with a warning; only a page
// that stopped answering ends the probe).
func (p *Prober) paginate(ctx context.Context, t *tab, f Form, origin string, maxPages int, sub *submission) error {
	pg := sub.Pages[0]
	seen := map[[32]byte]bool{sha256.Sum256([]byte(pg.HTML)): true}
	visited := map[string]bool{stripFragment(pg.URL): true}
	for k := 1; k < maxPages; k++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		pg, stop, err := p.next(ctx, t, f, k, sub.Pages[len(sub.Pages)-1].URL, origin, visited, seen)
		if err != nil {
			sub.Warnings = append(sub.Warnings, fmt.Sprintf("page %d: %v", k+1, err))
			return nil
		}
		if stop != "" {
			if stop != "no next link" {
				sub.Warnings = append(sub.Warnings, fmt.Sprintf("pagination stopped after page %d: %s", k, stop))
			}
			return nil
		}
		sub.Pages = append(sub.Pages, pg)
	}
	return nil
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
	if m, err := eval[markResult](sctx, t, fmt.Sprintf(markJS, token)); err != nil || !m.OK {
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
		res, err = t.waitSettled(sctx, token, seq0, p.pol.limits.script(), 0)
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
	pg, _, err := t.captureChecked(sctx, res.Navigated, "")
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
