package pipeline

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/trawl-dev/trawl/records"
)

// SavedPages reads saved pages given by file name (not a run directory): gzip-compressed
// when they end in .gz, converted to UTF-8 from the charset their bytes declare, with
// the address baseURL and the query terms query. Unreadable pages are skipped and named.
func SavedPages(names []string, baseURL, query string) ([]records.Page, []string) {
	var terms []string
	if q := strings.TrimSpace(query); q != "" {
		terms = []string{q}
	}
	var pages []records.Page
	var skipped []string
	for _, name := range names {
		b, err := readSaved(name)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		pages = append(pages, records.Page{Name: name, URL: baseURL, HTML: b, Terms: terms})
	}
	return pages, skipped
}

func readSaved(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing is lost on a close error
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer func() { _ = zr.Close() }()
		r = zr
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	enc, encName, certain := charset.DetermineEncoding(raw, "")
	if (!certain && utf8.Valid(raw)) || encName == "utf-8" {
		// No declared charset (or a BOM-less UTF-8 one): bytes that are valid UTF-8 are
		// UTF-8, not the windows-1252 that the HTML5 sniffing falls back to.
		return raw, nil
	}
	utf, err := io.ReadAll(enc.NewDecoder().Reader(bytes.NewReader(raw)))
	if err != nil {
		return nil, fmt.Errorf("%s: decode: %w", name, err)
	}
	return utf, nil
}
