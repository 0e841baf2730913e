package records

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// TestTreeBuilderUnseenPages checks the tree builder against html.Parse on real pages
// it was not written against: the 121 article-extraction pages and the 712 Formasaurus
// form pages of shared/data (pages of news sites, shops and log-in forms of 297 hosts).
// Every page the builder builds must give html.Parse's tree node for node; the pages it
// leaves to html.Parse are counted.
func TestTreeBuilderUnseenPages(t *testing.T) {
	if testing.Short() {
		t.Skip("833 pages: skipped under -short")
	}
	var files []string
	for _, set := range []string{"article-extraction", "formasaurus"} {
		fs, _ := filepath.Glob(filepath.Join(testutil.SharedData(t, set), "html", "*.html.gz"))
		files = append(files, fs...)
	}
	if len(files) < 800 {
		t.Fatalf("%d pages found in article-extraction and formasaurus, want 833", len(files))
	}
	built := 0
	for _, f := range files {
		raw, err := gunzipFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkTreeBuilder(t, filepath.Base(f), raw) {
			built++
		}
	}
	t.Logf("built %d of %d pages, %d left to html.Parse", built, len(files), len(files)-built)
}

func gunzipFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}
