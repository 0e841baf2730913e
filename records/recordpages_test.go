package records

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// The DEPTA and MDR sample pages (shared data record-pages/): single pages, no query
// terms, so the single-page tf-idf fallback is used. Their expectations come from the
// authors' unit tests and are partly specific to those algorithms (region indices,
// DEPTA's generalised nodes); this test reports, per page, what FOREST finds next to
// what they expect.

// bigrams returns the set of word 2-grams of s after normalisation (the thesis's
// measure, ch. 2 §6.3).
func bigrams(s string) map[string]bool {
	toks := textnorm.Tokens(s)
	out := map[string]bool{}
	for i := 0; i+1 < len(toks); i++ {
		out[toks[i]+" "+toks[i+1]] = true
	}
	if len(toks) == 1 {
		out[toks[0]] = true
	}
	return out
}

// bigramF1 is the thesis's 2-gram set F1 between a gold and an extracted text.
func bigramF1(gold, got string) float64 {
	g, s := bigrams(gold), bigrams(got)
	if len(g) == 0 || len(s) == 0 {
		return 0
	}
	inter := 0
	for k := range s {
		if g[k] {
			inter++
		}
	}
	if inter == 0 {
		return 0
	}
	p := float64(inter) / float64(len(s))
	r := float64(inter) / float64(len(g))
	return 2 * p * r / (p + r)
}

func recordText(r Record) string {
	var parts []string
	for _, l := range r.Leaves {
		if l.Text != "" {
			parts = append(parts, l.Text)
		}
	}
	return strings.Join(parts, " ")
}

// rowsMatched counts the expected rows that one found record matches (2-gram F1 ≥ 0.8,
// one to one, greedily).
func rowsMatched(rows []string, recs []Record) int {
	used := make([]bool, len(recs))
	n := 0
	for _, row := range rows {
		for i, r := range recs {
			if !used[i] && bigramF1(row, recordText(r)) >= 0.8 {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

type depta struct {
	Extract []struct {
		Page    string  `json:"page"`
		Rows    string  `json:"expected_rows_file"`
		Regions [][]any `json:"regions"`
	} `json:"extract_cases"`
}

type mdrExpect struct {
	Detect []struct {
		Page      string `json:"page"`
		Candidate struct {
			Tag, Class, ID string
		} `json:"candidate"`
	} `json:"detect"`
	Extract []struct {
		Page     string `json:"page"`
		Fragment bool   `json:"fragment"`
		Size     int    `json:"seed_record_size"`
		Records  int    `json:"records"`
	} `json:"extract"`
}

// TestRecordPagesReport prints, per page, the records FOREST finds (best pattern,
// single-page signifiers) against the DEPTA/MDR expectations:
//
//	go test ./records -run TestRecordPagesReport -v
func TestRecordPagesReport(t *testing.T) {
	dir := testutil.SharedData(t, "record-pages")
	var tbl strings.Builder
	run := func(path string) (*Wrapper, []Record) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w, recs, err := Extract(t.Context(), []Page{{Name: filepath.Base(path), HTML: raw}}, DefaultOptions())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return w, recs
	}

	var d depta
	readJSON(t, filepath.Join(dir, "pydepta", "expected.json"), &d)
	for _, c := range d.Extract {
		w, recs := run(filepath.Join(dir, "pydepta", c.Page))
		var rows []string
		if b, err := os.ReadFile(filepath.Join(dir, "pydepta", c.Rows)); err == nil {
			for line := range strings.Lines(string(b)) {
				if r := strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(line, "\t", " "), "\u00a0", " ")); r != "" {
					rows = append(rows, r)
				}
			}
		}
		exp := ""
		for _, r := range c.Regions {
			exp += fmt.Sprintf(" region %v k=%v covered=%v", r[0], r[2], r[3])
		}
		fmt.Fprintf(&tbl, "pydepta/%-10s found=%3d", c.Page, len(recs))
		if len(rows) > 0 {
			fmt.Fprintf(&tbl, " rows matched=%d/%d", rowsMatched(rows, recs), len(rows))
		}
		fmt.Fprintf(&tbl, " expected:%s\n    xpath=%s\n", exp, w.XPath)
		if len(recs) == 0 {
			t.Errorf("pydepta/%s: no records", c.Page)
		}
	}

	var m mdrExpect
	readJSON(t, filepath.Join(dir, "mdr", "expected.json"), &m)
	for _, c := range m.Extract {
		w, recs := run(filepath.Join(dir, "mdr", c.Page))
		cand := ""
		for _, dc := range m.Detect {
			if dc.Page == c.Page {
				cand = fmt.Sprintf(" container <%s class=%q id=%q>", dc.Candidate.Tag, dc.Candidate.Class, dc.Candidate.ID)
			}
		}
		fmt.Fprintf(&tbl, "mdr/%-13s found=%3d expected: records=%d of %d node(s)%s\n    xpath=%s\n",
			c.Page, len(recs), c.Records, c.Size, cand, w.XPath)
		if len(recs) == 0 {
			t.Errorf("mdr/%s: no records", c.Page)
		}
	}
	t.Log("\n" + tbl.String())
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
