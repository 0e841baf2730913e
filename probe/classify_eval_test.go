package probe_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/probe/internal/formasaurus"
)

func loadExamples(t *testing.T) []formasaurus.Example {
	t.Helper()
	dir := testutil.SharedData(t, "formasaurus")
	formasaurusOnce.Do(func() {
		// Parsing the thousand pages takes most of a minute under -race: the tests
		// share one load (they only read the examples).
		pages, err := formasaurus.Load(context.Background(), dir)
		formasaurusExamples, formasaurusErr = formasaurus.Examples(pages), err
	})
	if formasaurusErr != nil {
		t.Fatal(formasaurusErr)
	}
	return formasaurusExamples
}

var (
	formasaurusOnce     sync.Once
	formasaurusExamples []formasaurus.Example
	formasaurusErr      error
)

// TestClassifierCrossValidation is the acceptance test of the classifier: grouped
// 10-fold cross-validation on the shared Formasaurus pages (no registered domain in
// both the training and the test folds) must reach Formasaurus's published 20-fold
// figures: search F1 0.93 and search-query (keyword box) F1 0.92. docs/benchmarks.md
// has the 20-fold figures of `go run ./probe/internal/formtrain -cv 20`.
//
// Ten trainings on a thousand forms take minutes under the race detector; the training
// starts no goroutine, and the folds' concurrency is tested under -race by
// TestCrossValidateFoldsAtOnce. It skips under -race; scripts/test.sh runs it in its
// step without -race.
func TestClassifierCrossValidation(t *testing.T) {
	if raceEnabled {
		t.Skip("the cross-validation takes minutes under -race; run go test -run TestClassifierCrossValidation ./probe without -race (scripts/test.sh does)")
	}
	exs := loadExamples(t)
	pred, err := formasaurus.CrossValidate(t.Context(), exs, 10, probe.DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	s := formasaurus.Score(exs, pred)
	var report strings.Builder
	s.Write(&report)
	t.Log("\n" + report.String())
	checks := []struct {
		name      string
		got, want float64
	}{
		{"search F1", s.Class[probe.ClassSearch].F1(), 0.93},
		{"keyword box F1", s.Keyword.F1(), 0.92},
		{"form accuracy", s.Accuracy(), 0.87},
		{"login F1", s.Class[probe.ClassLogin].F1(), 0.90},
		{"password role F1", s.Role[probe.RolePassword].F1(), 0.95},
	}
	for _, c := range checks {
		if c.got < c.want {
			t.Errorf("%s = %.3f, want ≥ %.2f", c.name, c.got, c.want)
		}
	}
	if s.Forms < 1100 || s.KeywordFields < 3000 {
		t.Errorf("scored %d forms and %d fields: the corpus did not load whole", s.Forms, s.KeywordFields)
	}
}

// TestCrossValidateFoldsAtOnce runs the folds of a cross-validation at once (as many as
// there are CPUs), under the race detector in CI, on the first 200 Formasaurus forms:
// every form is classified by the fold that held it out.
func TestCrossValidateFoldsAtOnce(t *testing.T) {
	exs := loadExamples(t)
	exs = exs[:min(len(exs), 200)]
	pred, err := formasaurus.CrossValidate(t.Context(), exs, 3, probe.DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(pred) != len(exs) {
		t.Fatalf("%d forms classified of %d", len(pred), len(exs))
	}
	for i, f := range pred {
		if f.Class == "" || len(f.Fields) != len(exs[i].Form.Fields) {
			t.Errorf("form %d (%s): class %q, %d of %d fields", i, exs[i].Group, f.Class, len(f.Fields), len(exs[i].Form.Fields))
		}
	}
}

// TestEmbeddedModelUpToDate retrains on all pages and compares with the embedded model,
// so that a change of the features or of the training without `go generate ./probe`
// fails. Weights are compared with a tolerance: floating-point sums may differ in the
// last bits on other CPUs. The training (one goroutine, run under -race on fewer forms
// by TestCrossValidateFoldsAtOnce) takes minutes under the race detector: it skips
// there and scripts/test.sh runs it in its step without -race.
func TestEmbeddedModelUpToDate(t *testing.T) {
	if raceEnabled {
		t.Skip("training on every Formasaurus form takes minutes under -race; run go test -run TestEmbeddedModelUpToDate ./probe without -race (scripts/test.sh does)")
	}
	exs := loadExamples(t)
	o := probe.DefaultTrainOptions()
	c, err := probe.TrainClassifier(t.Context(), formasaurus.Training(exs), o)
	if err != nil {
		t.Fatal(err)
	}
	var fresh bytes.Buffer
	if err := c.WriteJSON(&fresh); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("model_forms.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var embedded, trained map[string]any
	if err := json.NewDecoder(zr).Decode(&embedded); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(fresh.Bytes(), &trained); err != nil {
		t.Fatal(err)
	}
	delete(embedded, "about")
	delete(trained, "about")
	var diffs []string
	compareJSON("", embedded, trained, &diffs)
	if len(diffs) > 0 {
		if len(diffs) > 10 {
			diffs = append(diffs[:10], fmt.Sprintf("… %d more", len(diffs)-10))
		}
		t.Errorf("the embedded model differs from a fresh training; run go generate ./probe:\n%s", strings.Join(diffs, "\n"))
	}
}

// compareJSON lists the differences between two decoded JSON values; numbers may differ
// by 2e-3, and a missing weight vector counts as zeros.
func compareJSON(path string, a, b any, diffs *[]string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*diffs = append(*diffs, path+": type differs")
			return
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				w = zerosLike(v)
			}
			compareJSON(path+"/"+k, v, w, diffs)
		}
		for k, w := range y {
			if _, ok := x[k]; !ok {
				compareJSON(path+"/"+k, zerosLike(w), w, diffs)
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*diffs = append(*diffs, path+": length differs")
			return
		}
		for i := range x {
			compareJSON(fmt.Sprintf("%s[%d]", path, i), x[i], y[i], diffs)
		}
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > 2e-3 {
			*diffs = append(*diffs, fmt.Sprintf("%s: %v vs %v", path, a, b))
		}
	default:
		if a != b {
			*diffs = append(*diffs, fmt.Sprintf("%s: %v vs %v", path, a, b))
		}
	}
}

func zerosLike(v any) any {
	if l, ok := v.([]any); ok {
		z := make([]any, len(l))
		for i := range z {
			z[i] = 0.0
		}
		return z
	}
	return nil
}

// TestEmbeddedModelLoads checks the model shipped in the binary.
func TestEmbeddedModelLoads(t *testing.T) {
	c, err := probe.DefaultClassifier()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.About(), "Formasaurus") {
		t.Errorf("About() = %q", c.About())
	}
}

func TestReadClassifierRejectsBadModels(t *testing.T) {
	tests := []struct{ name, model string }{
		{"not JSON", "{"},
		{"old features", `{"feature_version": 1}`},
		{"unknown field", `{"feature_version": 5, "extra": 1}`},
	}
	for _, tc := range tests {
		if _, err := probe.ReadClassifier(strings.NewReader(tc.model)); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
