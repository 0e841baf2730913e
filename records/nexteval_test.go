package records

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/testutil"
)

// nextEvalPage is one NEXT-EVAL list page with its ground truth.
type nextEvalPage struct {
	n     int
	html  []byte
	truth [][]string // absolute XPaths from /html
}

func loadNextEval(t testing.TB) []nextEvalPage {
	t.Helper()
	dir := testutil.SharedData(t, "next-eval-sample")
	files, err := filepath.Glob(filepath.Join(dir, "groundTruth", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ground truth in %s: %v", dir, err)
	}
	var out []nextEvalPage
	for _, f := range files {
		n, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		gt, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var truth [][]string
		if err := json.Unmarshal(gt, &truth); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range truth {
			for k := range r {
				r[k] = "/html[1]" + r[k]
			}
		}
		raw, err := readGzip(filepath.Join(dir, "html", strconv.Itoa(n)+".html.gz"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, nextEvalPage{n: n, html: raw, truth: truth})
	}
	slices.SortFunc(out, func(a, b nextEvalPage) int { return a.n - b.n })
	return out
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}

// nextEvalTarget is the acceptance target of issue 5 (an LLM extractor scores 0.957 on
// the full set); nextEvalFloor guards against regressions of what the extractor
// reaches today (0.914 on this sample, see docs/benchmarks.md; the policy ceiling of
// nexteval_ceiling_test.go is 0.942). The test fails below the floor and reports
// whether the target is met.
const (
	nextEvalTarget = 0.95
	nextEvalFloor  = 0.913
)

// nextEvalOptions are the options of the NEXT-EVAL run: every data region (the
// benchmark annotates all record lists of a page), signifiers from tf-idf over the
// pages (the benchmark has no query terms).
func nextEvalOptions() Options {
	o := DefaultOptions()
	o.Regions = RegionsAll
	return o
}

// TestNextEvalAcceptance runs record mode on the 41 NEXT-EVAL sample pages in one call
// (no query terms: the tf-idf fallback) and prints per-page and mean P/R/F1 with the
// benchmark's own measure (benchScore), the same matching over text nodes, and exact
// XPath matching, then the means of the two halves of the sample (n % 8 == 1 and
// n % 8 == 5). Run with -v to see the table:
//
//	go test ./records -run TestNextEvalAcceptance -v
func TestNextEvalAcceptance(t *testing.T) {
	pages := loadNextEval(t)
	in := make([]Page, len(pages))
	for i, p := range pages {
		in[i] = Page{Name: strconv.Itoa(p.n), HTML: p.html}
	}
	w, recs, err := Extract(t.Context(), in, nextEvalOptions())
	if err != nil {
		t.Fatal(err)
	}
	byPage := map[string][][]string{}
	for _, r := range recs {
		byPage[r.Page] = append(byPage[r.Page], append([]string{r.XPath}, r.Extra...))
	}
	var sum, sumNode, sumPolicy prf
	var half [2]prf // the two halves of the sample: n % 8 == 1 and n % 8 == 5
	var halfN, halfPolicy [2]float64
	var tbl strings.Builder
	fmt.Fprintf(&tbl, "%5s %6s %6s  %-28s %-28s %-28s %6s  %-28s\n", "page", "true", "found", "NEXT-EVAL (benchmark's code)", "text nodes below records", "exact XPath", "policy", "NEXT-EVAL against policy truth")
	for _, p := range pages {
		doc, err := html.Parse(bytes.NewReader(p.html))
		if err != nil {
			t.Fatal(err)
		}
		pred := byPage[strconv.Itoa(p.n)]
		m := benchScore(doc, pred, p.truth)
		nm, err := nodeScore(doc, pred, p.truth)
		if err != nil {
			t.Fatalf("page %d: %v", p.n, err)
		}
		e := exactScore(pred, p.truth)
		// the truth under the project's policy: one record once, chrome no record
		// (nexteval_ceiling_test.go)
		tp, err := resolveTruth(p)
		if err != nil {
			t.Fatalf("page %d: %v", p.n, err)
		}
		dup, chrome := tp.duplicates(), tp.chrome()
		var policy [][]string
		for i, r := range p.truth {
			if !dup[i] && chrome[i] == "" {
				policy = append(policy, r)
			}
		}
		pm := benchScore(doc, pred, policy)
		sumPolicy.P += pm.P
		sumPolicy.R += pm.R
		sumPolicy.F += pm.F
		sum.P += m.P
		sum.R += m.R
		sum.F += m.F
		sumNode.P += nm.P
		sumNode.R += nm.R
		sumNode.F += nm.F
		h := (p.n % 8) / 5
		half[h].P += m.P
		half[h].R += m.R
		half[h].F += m.F
		halfPolicy[h] += pm.F
		halfN[h]++
		fmt.Fprintf(&tbl, "%5d %6d %6d  %-28s %-28s %-28s %6d  %-28s\n", p.n, len(p.truth), len(pred), m, nm, e, len(policy), pm)
	}
	n := float64(len(pages))
	mean := prf{sum.P / n, sum.R / n, sum.F / n}
	fmt.Fprintf(&tbl, "mean over %d pages (NEXT-EVAL): %s (elapsed %v)\n", len(pages), mean, w.Elapsed)
	fmt.Fprintf(&tbl, "mean over %d pages (text nodes below records): %s\n", len(pages), prf{sumNode.P / n, sumNode.R / n, sumNode.F / n})
	fmt.Fprintf(&tbl, "mean over %d pages against the truth under the policy (copies and chrome left out): %s\n", len(pages), prf{sumPolicy.P / n, sumPolicy.R / n, sumPolicy.F / n})
	for h, name := range []string{"n % 8 == 1", "n % 8 == 5"} {
		fmt.Fprintf(&tbl, "half %s (%.0f pages): %s; against the truth under the policy F1=%.3f\n", name, halfN[h], prf{half[h].P / halfN[h], half[h].R / halfN[h], half[h].F / halfN[h]}, halfPolicy[h]/halfN[h])
	}
	status := "met"
	if mean.F < nextEvalTarget {
		status = "NOT met"
	}
	fmt.Fprintf(&tbl, "acceptance target mean F1 ≥ %.2f: %s\n", nextEvalTarget, status)
	status = "met"
	if sumPolicy.F/n < nextEvalTarget {
		status = "NOT met"
	}
	fmt.Fprintf(&tbl, "the same target against the truth under the policy: %s\n", status)
	t.Log("\n" + tbl.String())
	if mean.F < nextEvalFloor {
		t.Errorf("mean F1 %.3f fell below the regression floor %.2f", mean.F, nextEvalFloor)
	}
	if os.Getenv("TRAWL_EVAL_WRAPPER") != "" {
		b, err := json.MarshalIndent(w, "", " ")
		if err == nil {
			err = os.WriteFile(os.Getenv("TRAWL_EVAL_WRAPPER"), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
