package probe

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Discovery is what Discover found on a page.
type Discovery struct {
	// Page is the page after its scripts ran (forms built by scripts are in it).
	Page Page
	// Forms are all the forms of the page, classified, in document order.
	Forms []Form
	// Chosen is the index in Forms of the form to probe.
	Chosen int
}

// Form returns the chosen form.
func (d Discovery) Form() Form { return d.Forms[d.Chosen] }

// Discover opens a page, waits for its scripts, parses and classifies its forms
// (including forms built by scripts and search boxes outside any <form>), and chooses
// the form to probe: the one Options.ForceForm names, else the best search form. A page
// without forms gives ErrNoForm; a page whose forms are all something else than search
// gives an error wrapping ErrNotSearchForm that lists them. The Discovery is returned
// with these errors too, so that the caller can still report the forms.
func (p *Prober) Discover(ctx context.Context, pageURL string) (Discovery, error) {
	var d Discovery
	pg, err := p.Open(ctx, pageURL)
	if err != nil {
		return d, err
	}
	d.Page = pg
	doc, err := html.Parse(strings.NewReader(pg.HTML))
	if err != nil {
		return d, fmt.Errorf("probe: parse %s: %w", pg.URL, err)
	}
	forms, err := ParseForms(doc, pg.URL)
	if err != nil {
		return d, err
	}
	for i := range forms {
		Classify(&forms[i])
	}
	d.Forms = forms
	if len(forms) == 0 {
		return d, fmt.Errorf("%w: %s (after its scripts ran)", ErrNoForm, pg.URL)
	}
	if sel := p.opts.ForceForm; sel != "" {
		i, err := pickForm(forms, sel)
		if err != nil {
			return d, err
		}
		d.Chosen = i
		return d, nil
	}
	i, ok := BestSearchForm(forms)
	if !ok {
		var kinds []string
		for _, f := range forms {
			kinds = append(kinds, fmt.Sprintf("%s %s (%.2f)", formName(f), f.Class, f.Confidence))
		}
		return d, fmt.Errorf("%w: none of the %d forms of %s is a search form: %s; name one with --force-form to probe it anyway",
			ErrNotSearchForm, len(forms), pg.URL, strings.Join(kinds, ", "))
	}
	d.Chosen = i
	return d, nil
}

// pickForm finds the form a --force-form value names: its index among the <form>
// elements, its id, its name, or its XPath.
func pickForm(forms []Form, sel string) (int, error) {
	if n, err := strconv.Atoi(sel); err == nil {
		for i, f := range forms {
			if f.Index != nil && *f.Index == n {
				return i, nil
			}
		}
	}
	for i, f := range forms {
		if f.ID == sel || f.Name == sel || f.XPath == sel {
			return i, nil
		}
	}
	var names []string
	for _, f := range forms {
		n := f.XPath
		if f.Index != nil {
			n = strconv.Itoa(*f.Index)
		}
		if f.ID != "" {
			n += " (id " + f.ID + ")"
		}
		names = append(names, n)
	}
	return -1, fmt.Errorf("probe: --force-form %q names no form of the page (forms: %s)", sel, strings.Join(names, ", "))
}
