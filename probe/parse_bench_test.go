package probe

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// benchPage reads a saved page of the shared Formasaurus corpus (gzip-compressed).
func benchPage(b *testing.B, name string) []byte {
	b.Helper()
	raw, err := os.ReadFile(filepath.Join(testutil.SharedData(b, "formasaurus"), "html", name))
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// BenchmarkParseForms measures ReadHTML + ParseForms + Classify on the largest saved
// page of the corpus (toulouse-game-show.fr-0.html, 468 kB of HTML).
func BenchmarkParseForms(b *testing.B) {
	raw := benchPage(b, "toulouse-game-show.fr-0.html.gz")
	b.SetBytes(468348)
	for b.Loop() {
		doc, err := ReadHTML(bytes.NewReader(raw), "")
		if err != nil {
			b.Fatal(err)
		}
		forms, err := ParseForms(doc, "http://toulouse-game-show.fr/")
		if err != nil {
			b.Fatal(err)
		}
		for i := range forms {
			Classify(&forms[i])
		}
	}
}

// BenchmarkClassify measures Classify alone on the forms of a typical page.
func BenchmarkClassify(b *testing.B) {
	raw := benchPage(b, "www.orbitz.com-0.html.gz")
	doc, err := ReadHTML(bytes.NewReader(raw), "")
	if err != nil {
		b.Fatal(err)
	}
	forms, err := ParseForms(doc, "http://www.orbitz.com/")
	if err != nil {
		b.Fatal(err)
	}
	Classify(&forms[0]) // load the model outside the loop
	for b.Loop() {
		for i := range forms {
			f := forms[i]
			Classify(&f)
		}
	}
	b.ReportMetric(float64(len(forms)), "forms/op")
}
