package benchmark

import (
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string, zip bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if !zip {
		if _, err := f.WriteString(data); err != nil {
			t.Fatal(err)
		}
		return
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

const listHTML = `<html><body><ul><li><b>a</b> one</li><li><b>b</b> two</li><li><b>c</b> three</li></ul></body></html>`

// TestLoadEvaluate loads a folder in the NEXT-EVAL layout (a page compressed, a page
// not, a page whose truth does not resolve), evaluates an extractor that predicts the
// truth and one that predicts nothing, and cross-validates.
func TestLoadEvaluate(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "html", "1.html.gz"), listHTML, true)
	writeFile(t, filepath.Join(dir, "html", "2.html"), listHTML, false)
	writeFile(t, filepath.Join(dir, "html", "3.html"), listHTML, false)
	writeFile(t, filepath.Join(dir, "groundTruth", "1.json"), `[["/body[1]/ul[1]/li[1]"],["/body[1]/ul[1]/li[2]"],["/body[1]/ul[1]/li[3]"]]`, false)
	writeFile(t, filepath.Join(dir, "groundTruth", "2.json"), `[["/body[1]/ul[1]/li[2]"]]`, false)
	writeFile(t, filepath.Join(dir, "groundTruth", "3.json"), `[["/body[1]/ul[1]/li[9]"]]`, false)
	pages, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 3 || pages[0].N != 1 || !pages[0].Scorable() || pages[2].Scorable() || pages[0].Truth[0][0] != "/html[1]/body[1]/ul[1]/li[1]" {
		t.Fatalf("pages %+v", pages)
	}
	truth := func(_ context.Context, ps []Page) ([][][]string, error) {
		out := make([][][]string, len(ps))
		for i, p := range ps {
			out[i] = p.Truth
		}
		return out, nil
	}
	rep, err := Evaluate(t.Context(), pages, truth)
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Mean(); m.F != 1 || rep.Pages() != 2 {
		t.Errorf("the truth scores %v over %d pages, want F1 1 over 2 (page 3 apart)", m, rep.Pages())
	}
	var b strings.Builder
	rep.Print(&b)
	if !strings.Contains(b.String(), "apart") || !strings.Contains(b.String(), "mean over 2 pages: P=1.000 R=1.000 F1=1.000") {
		t.Errorf("report:\n%s", b.String())
	}
	nothing := func(_ context.Context, ps []Page) ([][][]string, error) { return make([][][]string, len(ps)), nil }
	rep, err = CrossValidate(t.Context(), pages, 2, func(_ context.Context, tr []Page) (Extractor, error) {
		for _, p := range tr {
			if !p.Scorable() {
				t.Errorf("page %d, whose truth does not resolve, was given to training", p.N)
			}
		}
		return nothing, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := rep.Mean(); m.F != 0 || rep.Folds != 2 {
		t.Errorf("nothing scores %v with %d folds, want 0 with 2", m, rep.Folds)
	}
}

// TestLoadErrors checks that a bad folder is reported with the file at fault.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"empty folder", nil, "no groundTruth"},
		{"truth without its page", map[string]string{"groundTruth/4.json": `[]`}, "4.html"},
		{"not JSON", map[string]string{"groundTruth/4.json": `[[`, "html/4.html": listHTML}, "4.json"},
		{"not a number", map[string]string{"groundTruth/x.json": `[]`}, "x.json: the file name is not a page number"},
		{"relative XPath", map[string]string{"groundTruth/4.json": `[["ul/li"]]`, "html/4.html": listHTML}, "not an absolute XPath"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tc.files {
				writeFile(t, filepath.Join(dir, name), data, false)
			}
			if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}
