package articleeval

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Case is one benchmark page.
type Case struct {
	// ID is the page id (the file name without .html.gz).
	ID string
	// URL is the page's address from the ground truth; Host its host name without "www.".
	URL, Host string
	// HTML is the page, decompressed.
	HTML []byte
	// Truth is the true article body (paragraphs separated by blank lines).
	Truth string
}

// Split halves: Half returns one of these.
const (
	HalfTune   = "tune"
	HalfReport = "report"
)

// Half returns the half a page belongs to: a fixed FNV-1a hash of its host, so that all
// pages of a site fall on the same side and a rule keyed to a site cannot leak from the
// tune half into the report half.
func Half(host string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(host))
	if h.Sum32()%2 == 0 {
		return HalfTune
	}
	return HalfReport
}

type truthEntry struct {
	ArticleBody *string `json:"articleBody"`
	URL         string  `json:"url"`
}

// Load reads a folder in the benchmark's layout, pages sorted by id. Every id of the
// ground truth must have its html/<id>.html.gz; an HTML file without ground truth is an
// error too, so that a folder cannot be scored on a silent subset.
func Load(dir string) ([]Case, error) {
	gtPath := filepath.Join(dir, "ground-truth.json")
	raw, err := os.ReadFile(gtPath)
	if err != nil {
		return nil, fmt.Errorf("articleeval: %w", err)
	}
	var gt map[string]truthEntry
	if err := json.Unmarshal(raw, &gt); err != nil {
		return nil, fmt.Errorf("articleeval: %s: %w", gtPath, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "html", "*.html.gz"))
	if err != nil {
		return nil, fmt.Errorf("articleeval: %w", err)
	}
	onDisk := map[string]bool{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".html.gz")
		onDisk[id] = true
		if _, ok := gt[id]; !ok {
			return nil, fmt.Errorf("articleeval: %s: no entry %q in %s", f, id, gtPath)
		}
	}
	var cases []Case
	for id, e := range gt {
		if e.ArticleBody == nil {
			return nil, fmt.Errorf("articleeval: %s: entry %q has no articleBody", gtPath, id)
		}
		if !onDisk[id] {
			return nil, fmt.Errorf("articleeval: %s: entry %q has no html/%s.html.gz", gtPath, id, id)
		}
		b, err := readGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		host := ""
		if u, err := url.Parse(e.URL); err == nil {
			host = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
		}
		cases = append(cases, Case{ID: id, URL: e.URL, Host: host, HTML: b, Truth: *e.ArticleBody})
	}
	slices.SortFunc(cases, func(a, b Case) int { return strings.Compare(a.ID, b.ID) })
	return cases, nil
}

func readGzip(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("articleeval: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("articleeval: %s: %w", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("articleeval: %s: %w", path, err)
	}
	return b, nil
}
