package records_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/articleeval"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// TestArticleBenchmark scores trawl's article extractors on the shared article benchmark
// (121 pages) with its metric, per half of the host split. The single-page extractor must
// reach F1 ≥ articleF1Floor on all pages.
func TestArticleBenchmark(t *testing.T) {
	dir := testutil.SharedData(t, "article-extraction")
	cases, err := articleeval.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var failures []string
	evs, err := articleeval.Evaluate(t.Context(), cases, articleeval.TrawlExtractors(&failures))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := articleeval.WriteTable(&b, evs); err != nil {
		t.Fatal(err)
	}
	t.Logf("article benchmark, %d pages:\n%s", len(cases), b.String())
	for _, f := range failures {
		t.Logf("no article: %s", f)
	}
	if d := os.Getenv("TRAWL_ARTICLE_DUMP"); d != "" {
		dumpArticleScores(t, d, cases, evs)
	}
	if f1 := evs[0].Rows[0].F1; f1 < articleF1Floor {
		t.Errorf("single-page F1 %.3f < %.3f", f1, articleF1Floor)
	}
}

const articleF1Floor = 0.95

// dumpArticleScores writes, for the tune half only, each page's score and extracted text
// next to its truth, worst first (a tuning aid: the report half is never looked at).
func dumpArticleScores(t *testing.T, dir string, cases []articleeval.Case, evs []articleeval.Evaluation) {
	for k, ev := range evs {
		var idx []int
		for i, c := range cases {
			if articleeval.Half(c.Host) == articleeval.HalfTune {
				idx = append(idx, i)
			}
		}
		f1 := func(s articleeval.PageScore) float64 {
			if s.P+s.R == 0 {
				return 0
			}
			return 2 * s.P * s.R / (s.P + s.R)
		}
		sort.Slice(idx, func(a, b int) bool { return f1(ev.Scores[idx[a]]) < f1(ev.Scores[idx[b]]) })
		var b strings.Builder
		for _, i := range idx {
			s := ev.Scores[i]
			fmt.Fprintf(&b, "%s\t%s\tP=%.3f R=%.3f F1=%.3f\n", cases[i].ID[:8], cases[i].Host, s.P, s.R, f1(s))
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-%s.got.txt", k, cases[i].ID[:8])), []byte(ev.Texts[i]), 0o644)
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.truth.txt", cases[i].ID[:8])), []byte(cases[i].Truth), 0o644)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d-scores.tsv", k)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
