// Package formasaurus reads the Formasaurus corpus of annotated web forms (saved pages,
// the type of each <form>, the type of each named visible field) into trawl's Form
// values, maps its classes onto trawl's, and provides the grouped cross-validation and
// the scores used to train and evaluate probe's form classifier.
//
// Corpus: TeamHG-Memex/Formasaurus, formasaurus/data (MIT), as copied to
// shared/data/formasaurus (see its SOURCE.md). Forms are matched to annotations by their
// position among the page's <form> elements, as Formasaurus does with lxml.
package formasaurus

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/html"
	"golang.org/x/net/publicsuffix"

	"github.com/trawl-dev/trawl/probe"
)

// FormClass maps a Formasaurus form-type code to trawl's class. The codes "X" (not
// annotated) and "-" (skip) have no class and map to "".
func FormClass(code string) probe.Class {
	switch code {
	case "s":
		return probe.ClassSearch
	case "l":
		return probe.ClassLogin
	case "r":
		return probe.ClassRegistration
	case "p":
		return probe.ClassPasswordRecovery
	case "c":
		return probe.ClassContact
	case "m":
		return probe.ClassMailingList
	case "b":
		return probe.ClassOrder
	case "o", "P", "V", "N", "C": // other, poll, display options, navigation, captcha
		return probe.ClassOther
	}
	return ""
}

// FieldRole maps a Formasaurus field-type code to the Field.Role trawl predicts. "XX"
// (not annotated) maps to "".
func FieldRole(code string) string {
	switch code {
	case "qq":
		return probe.RoleKeyword
	case "qc":
		return probe.RoleCategory
	case "us", "ue":
		return probe.RoleUsername
	case "p1", "p2":
		return probe.RolePassword
	case "e1", "e2":
		return probe.RoleEmail
	case "Bs":
		return probe.RoleSubmit
	case "sp":
		return probe.RoleSort
	case "ca":
		return probe.RoleCaptcha
	case "XX", "--", "":
		return ""
	}
	return probe.RoleOther
}

// Page is one annotated page.
type Page struct {
	// Key is the index key ("html/<host>-<n>.html"); URL the page's address.
	Key, URL string
	// Group is the registered domain of the page (eTLD+1), the unit of the
	// cross-validation folds.
	Group string
	// Forms are the page's <form> elements as parsed by probe (formless groups left
	// out); Codes and FieldCodes their annotations, by position.
	Forms      []probe.Form
	Codes      []string
	FieldCodes []map[string]string
	// Aligned is false when probe found a different number of <form> elements than the
	// annotation lists (nested forms, which an HTML5 parser drops); such pages cannot
	// be scored form by form.
	Aligned bool
}

type entry struct {
	URL    string              `json:"url"`
	Forms  []string            `json:"forms"`
	Fields []map[string]string `json:"visible_html_fields"`
}

// Load reads the corpus in dir (index.json and html/*.html.gz) and parses every page
// with probe.ReadHTML and probe.ParseForms, on all CPUs.
func Load(ctx context.Context, dir string) ([]Page, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, fmt.Errorf("formasaurus: %w", err)
	}
	var idx map[string]entry
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, fmt.Errorf("formasaurus: %s: %w", filepath.Join(dir, "index.json"), err)
	}
	keys := make([]string, 0, len(idx))
	for k := range idx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pages := make([]Page, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				pages[i], errs[i] = loadPage(dir, keys[i], idx[keys[i]])
			}
		})
	}
	for i := range keys {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pages, nil
}

func loadPage(dir, key string, e entry) (Page, error) {
	path := filepath.Join(dir, key+".gz")
	f, err := os.Open(path)
	if err != nil {
		return Page{}, fmt.Errorf("formasaurus: %w", err)
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return Page{}, fmt.Errorf("formasaurus: %s: %w", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return Page{}, fmt.Errorf("formasaurus: %s: %w", path, err)
	}
	// Formasaurus stored every page as UTF-8 whatever its declared charset.
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return Page{}, fmt.Errorf("formasaurus: %s: %w", path, err)
	}
	all, err := probe.ParseForms(doc, e.URL)
	if err != nil {
		return Page{}, fmt.Errorf("formasaurus: %s: %w", path, err)
	}
	p := Page{Key: key, URL: e.URL, Group: group(key, e.URL), Codes: e.Forms, FieldCodes: e.Fields}
	for _, fm := range all {
		if fm.Index != nil {
			p.Forms = append(p.Forms, fm)
		}
	}
	p.Aligned = len(p.Forms) == len(p.Codes) && len(p.Codes) == len(p.FieldCodes)
	return p, nil
}

// group returns the registered domain of a page, from its URL, else from the host part
// of its file name.
func group(key, rawURL string) string {
	host := ""
	if u, err := url.Parse(rawURL); err == nil {
		host = u.Hostname()
	}
	if host == "" {
		base := strings.TrimSuffix(filepath.Base(key), ".html")
		if i := strings.LastIndexByte(base, '-'); i > 0 {
			base = base[:i]
		}
		host = base
	}
	host = strings.ToLower(strings.TrimPrefix(host, "www."))
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// Example is one annotated form.
type Example struct {
	Page  int // index of the page in the loaded slice
	Group string
	Form  probe.Form
	// Class is the annotated class ("" when the form type is not annotated);
	// Roles maps field names to annotated roles (nil when the fields are not annotated).
	Class probe.Class
	Roles map[string]string
}

// Examples returns the forms of the aligned pages that have an annotated type or
// annotated fields.
func Examples(pages []Page) []Example {
	var out []Example
	for pi, p := range pages {
		if !p.Aligned {
			continue
		}
		for i, f := range p.Forms {
			ex := Example{Page: pi, Group: p.Group, Form: f, Class: FormClass(p.Codes[i])}
			annotated := false
			roles := map[string]string{}
			for name, code := range p.FieldCodes[i] {
				r := FieldRole(code)
				if r != "" {
					annotated = true
				}
				roles[name] = r
			}
			if annotated {
				ex.Roles = roles
			}
			if ex.Class == "" && ex.Roles == nil {
				continue
			}
			out = append(out, ex)
		}
	}
	return out
}

// Folds assigns every example to one of k folds so that all forms of a registered
// domain fall in the same fold. Groups are dealt largest first to the fold with the
// fewest examples (ties: the lowest fold number), which balances the folds and is
// deterministic.
func Folds(exs []Example, k int) []int {
	size := map[string]int{}
	for _, e := range exs {
		size[e.Group]++
	}
	groups := make([]string, 0, len(size))
	for g := range size {
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b string) int {
		if c := cmp.Compare(size[b], size[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	load := make([]int, k)
	foldOf := map[string]int{}
	for _, g := range groups {
		best := 0
		for f := 1; f < k; f++ {
			if load[f] < load[best] {
				best = f
			}
		}
		foldOf[g] = best
		load[best] += size[g]
	}
	out := make([]int, len(exs))
	for i, e := range exs {
		out[i] = foldOf[e.Group]
	}
	return out
}
