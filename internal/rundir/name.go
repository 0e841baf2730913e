package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Name returns the directory name of the run of one form: the form page's host (with
// its port), path and query, then "form-" and the form's selector when one is given
// (--force-form: an index, id, name or XPath), lower-cased, with every run of other
// characters than letters and digits turned into "-". Long names are cut and end with a
// hash of the whole. Two forms (two queries of one page, two forms of one query) get
// two directories:
//
//	"http://127.0.0.1:18082/mobile"              → "127-0-0-1-18082-mobile"
//	"http://h.example/editor/?select=country"    → "h-example-editor-select-country"
//	"http://h.example/editor/?select=film", "2"  → "h-example-editor-select-film-form-2"
//
// A page without a query and without a form selector keeps the name earlier versions
// of trawl gave it.
func Name(pageURL, form string) string {
	raw := pageURL
	if u, err := url.Parse(pageURL); err == nil && u.Host != "" {
		raw = u.Host + u.EscapedPath()
		if u.RawQuery != "" {
			raw += "?" + u.RawQuery
		}
	}
	if form != "" {
		raw += " form " + form
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(raw) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		s = "source"
	}
	if len(s) > 80 {
		h := sha256.Sum256([]byte(raw))
		s = strings.TrimRight(s[:71], "-") + "-" + hex.EncodeToString(h[:4])
	}
	return s
}

// Identity names the form whose run a directory holds: the page URL as given and the
// form selector ("" when the form was chosen by the classifier). It is stored in
// .trawl/source.json.
type Identity struct {
	URL  string `json:"url"`
	Form string `json:"form,omitempty"`
}

func (id Identity) String() string {
	if id.Form == "" {
		return id.URL
	}
	return fmt.Sprintf("%s (form %s)", id.URL, id.Form)
}

// ErrOtherForm marks a run directory that holds the run of another form.
var ErrOtherForm = errors.New("the run directory holds the run of another form")

// Claim makes dir the run directory of id: it creates dir, and fails with an error
// wrapping ErrOtherForm when dir already holds the run of another form, so that a run
// never answers "already done" with, or overwrites, another form's files. A directory
// written before identities were kept is identified by the URL in its probe-run.json;
// one without that is taken as it is.
func Claim(dir string, id Identity) error {
	var have Identity
	err := ReadJSON(filepath.Join(dir, IdentityFile), &have)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		var legacy struct {
			URL     string `json:"url"`
			Options struct {
				ForceForm string `json:"force_form"`
			} `json:"options"`
		}
		lerr := ReadJSON(filepath.Join(dir, ProbeRunFile), &legacy)
		if lerr != nil && !errors.Is(lerr, fs.ErrNotExist) {
			return fmt.Errorf("identify the run in %s: %w", dir, lerr)
		}
		have = Identity{URL: legacy.URL, Form: legacy.Options.ForceForm}
	default:
		return fmt.Errorf("identify the run in %s: %w", dir, err)
	}
	if have.URL != "" && have != id {
		return fmt.Errorf("%w: %s holds the run of %s, not of %s; choose another --out or remove the directory", ErrOtherForm, dir, have, id)
	}
	if have == id {
		if _, err := os.Stat(filepath.Join(dir, IdentityFile)); err == nil {
			return nil
		}
	}
	return WriteJSON(filepath.Join(dir, IdentityFile), id)
}
