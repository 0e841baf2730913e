package records

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/nexteval_golden.txt from the current output")

// goldenFile holds the SHA-256 of Extract's output on every NEXT-EVAL page of the
// sample and training sets (records, page class, the wrapper of each template) and of
// the list model's training examples (features and labels) per page. It pins the
// output while the code is made faster: a change that is meant to change the output
// regenerates it with
//
//	go test ./records -run TestNextEvalGolden -update-golden
//
// and says so in its commit.
const goldenFile = "testdata/nexteval_golden.txt"

// TestNextEvalGolden checks that Extract (every region, the committed list model) and
// CollectListExamples give byte-identical output on the 123 NEXT-EVAL pages of the
// sample and training sets, in one call as `trawl extract --pages --regions all`
// does; and that the native XPath evaluator selects what the XPath engine selects.
func TestNextEvalGolden(t *testing.T) {
	var pages []benchmark.Page
	for _, set := range []string{"next-eval-sample", "next-eval-train"} {
		pages = append(pages, loadNextEvalSet(t, set)...)
	}
	stop := auditXPaths(t)
	got := nextEvalDigests(t, pages)
	checked, native := stop()
	t.Logf("%d XPaths of the wrapper self-check evaluated by the XPath engine too, %d of them natively", checked, native)
	if native < checked*9/10 {
		t.Errorf("only %d of %d XPaths of the native form", native, checked)
	}
	if *updateGolden {
		var b strings.Builder
		b.WriteString("# SHA-256 of Extract's output and of the list examples per NEXT-EVAL page (records/golden_test.go)\n")
		for _, l := range got {
			b.WriteString(l + "\n")
		}
		if err := os.MkdirAll(filepath.Dir(goldenFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d lines)", goldenFile, len(got))
		return
	}
	want := readGolden(t)
	if len(want) != len(got) {
		t.Errorf("%d digests, %s has %d", len(got), goldenFile, len(want))
	}
	bad := 0
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			bad++
			if bad <= 10 {
				t.Errorf("%s:%d: want %q, got %q", goldenFile, i+2, want[i], got[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d digests differ from %s (regenerate with -update-golden only if the change is meant)", bad, len(want), goldenFile)
	}
}

// nextEvalDigests runs Extract over all pages in one call and collects the list
// examples, and returns one "kind name digest" line per page and template.
func nextEvalDigests(t *testing.T, pages []benchmark.Page) []string {
	t.Helper()
	in := make([]Page, len(pages))
	tps := make([]TrainingPage, len(pages))
	for i, p := range pages {
		in[i] = Page{Name: p.Name(), HTML: p.HTML}
		tps[i] = TrainingPage{Page: in[i], Truth: p.Truth}
	}
	w, recs, err := Extract(t.Context(), in, nextEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	byPage := map[string][]Record{}
	for _, r := range recs {
		byPage[r.Page] = append(byPage[r.Page], r)
	}
	var out []string
	digest := func(kind, name string, v ...any) {
		h := sha256.New()
		for _, x := range v {
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(b)
			h.Write([]byte{'\n'})
		}
		out = append(out, fmt.Sprintf("%s %s %x", kind, name, h.Sum(nil)))
	}
	for i, pc := range w.Pages {
		digest("page", in[i].Name, pc, byPage[in[i].Name])
	}
	for _, tpl := range w.Templates {
		digest("template", fmt.Sprint(tpl.Cluster), tpl)
	}
	w.Elapsed = 0
	w.Pages, w.Templates = nil, nil
	digest("wrapper", "-", w)
	ex, err := CollectListExamples(t.Context(), [][]TrainingPage{tps}, nextEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, pe := range ex.pages {
		h := sha256.New()
		var buf [8]byte
		for k, f := range pe.feats {
			for _, v := range f {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
				h.Write(buf[:])
			}
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(pe.labels[k]))
			h.Write(buf[:])
		}
		out = append(out, fmt.Sprintf("examples %s %x", pe.name, h.Sum(nil)))
	}
	return out
}

func readGolden(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatalf("%v (generate it with -update-golden)", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
