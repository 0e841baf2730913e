package pipeline

import (
	"io"
	"net/url"
	"os"

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
