package pipeline

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/trawl-dev/trawl/probe"
)

// FormsOf reads a page (HTML of contentType, "" to sniff it) and returns its forms,
// classified, with URLs resolved against pageURL.
func FormsOf(r io.Reader, contentType, pageURL string) ([]probe.Form, error) {
	doc, err := probe.ReadHTML(r, contentType)
	if err != nil {
		return nil, err
	}
	forms, err := probe.ParseForms(doc, pageURL)
	if err != nil {
		return nil, err
	}
	for i := range forms {
		probe.Classify(&forms[i])
	}
	return forms, nil
}

// LiveURL reports whether arg is a URL rather than a file: it is not an existing file
// and has a scheme of two or more letters (so a Windows drive letter is not one).
func LiveURL(arg string) (*url.URL, bool) {
	if _, err := os.Stat(arg); err == nil {
		return nil, false
	}
	u, err := url.Parse(arg)
	if err != nil || len(u.Scheme) < 2 {
		return nil, false
	}
	return u, true
}

// PageForms returns the classified forms of page: a live URL (LiveURL) that render
// turns into its DOM and final URL, or a saved file. Their URLs are resolved against
// baseURL, or against the page's final URL when baseURL is "".
func PageForms(ctx context.Context, page, baseURL string, render func(ctx context.Context, u string) (string, string, error)) ([]probe.Form, error) {
	if u, ok := LiveURL(page); ok {
		dom, final, err := render(ctx, u.String())
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", page, err)
		}
		if baseURL == "" {
			baseURL = final
		}
		forms, err := FormsOf(strings.NewReader(dom), "text/html; charset=utf-8", baseURL)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", page, err)
		}
		return forms, nil
	}
	f, err := os.Open(page)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	forms, err := FormsOf(f, "", baseURL)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", page, err)
	}
	return forms, nil
}
