package benchmark

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
)

// Page is one list page with its ground truth.
type Page struct {
	// Set names the folder the page was read from (its base name); N is the page's number.
	Set string
	N   int
	// HTML is the page as given (decompressed).
	HTML []byte
	// Truth are the true records, each a list of absolute XPaths from /html[1].
	Truth [][]string
	// Unresolved counts the XPaths of the truth that select no element of the page as
	// an HTML5 parser builds it (the page's annotation was made on another DOM): such
	// pages cannot be scored fairly and are reported apart.
	Unresolved int
}

// Name is the page's name in reports: "set/n".
func (p *Page) Name() string { return p.Set + "/" + strconv.Itoa(p.N) }

// Scorable reports whether every XPath of the page's truth resolves.
func (p *Page) Scorable() bool { return p.Unresolved == 0 }

// Load reads the pages of one folder in the NEXT-EVAL layout, in the order of their
// numbers. Every ground-truth file needs its page; a page without ground truth is
// ignored.
func Load(dir string) ([]Page, error) {
	files, err := filepath.Glob(filepath.Join(dir, "groundTruth", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no groundTruth/<n>.json files (not a folder in the NEXT-EVAL layout)", dir)
	}
	set := filepath.Base(filepath.Clean(dir))
	out := make([]Page, 0, len(files))
	for _, f := range files {
		n, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			return nil, fmt.Errorf("%s: the file name is not a page number", f)
		}
		truth, err := readTruth(f)
		if err != nil {
			return nil, err
		}
		raw, err := readPage(dir, n)
		if err != nil {
			return nil, err
		}
		pg := Page{Set: set, N: n, HTML: raw, Truth: truth}
		if pg.Unresolved, err = unresolved(raw, truth); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, pg)
	}
	slices.SortFunc(out, func(a, b Page) int { return a.N - b.N })
	return out, nil
}

// readTruth reads a ground-truth file and prefixes its XPaths with /html[1].
func readTruth(path string) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var truth [][]string
	if err := json.Unmarshal(b, &truth); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, r := range truth {
		if len(r) == 0 {
			return nil, fmt.Errorf("%s: record %d has no XPath", path, i)
		}
		for k, xp := range r {
			if !strings.HasPrefix(xp, "/") {
				return nil, fmt.Errorf("%s: record %d: %q is not an absolute XPath", path, i, xp)
			}
			if !strings.HasPrefix(xp, "/html") {
				r[k] = "/html[1]" + xp
			}
		}
	}
	return truth, nil
}

// readPage reads html/<n>.html.gz, or html/<n>.html.
func readPage(dir string, n int) ([]byte, error) {
	base := filepath.Join(dir, "html", strconv.Itoa(n)+".html")
	f, err := os.Open(base + ".gz")
	if errors.Is(err, os.ErrNotExist) {
		return os.ReadFile(base)
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", base, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", base, err)
	}
	return b, nil
}

// unresolved counts the XPaths of truth that select nothing on the page.
func unresolved(raw []byte, truth [][]string) (int, error) {
	doc, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range truth {
		for _, xp := range r {
			node, err := htmlquery.Query(doc, xp)
			if err != nil {
				return 0, fmt.Errorf("xpath %s: %w", xp, err)
			}
			if node == nil {
				n++
			}
		}
	}
	return n, nil
}

// Fold assigns page number n to one of k folds by a fixed hash of its decimal number
// (FNV-1a, 32 bits), so that a page stays in its fold whatever other pages are given.
func Fold(n, k int) int {
	h := fnv.New32a()
	h.Write([]byte(strconv.Itoa(n)))
	return int(h.Sum32() % uint32(k))
}
