package articleeval

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// Extractor is one method under evaluation. Run receives every case so that multi-page
// methods can group the pages of a site; it returns one text per case ("" for none) and,
// for methods that work page by page, the wall time of each page (else nil).
type Extractor struct {
	Name     string
	Settings string
	Run      func(ctx context.Context, cases []Case) (texts []string, perPage []time.Duration, err error)
}

// PerPage makes an Extractor's Run from a function of one page. A page's error is not
// fatal: the page is scored as empty and its error is counted.
func PerPage(f func(c Case) (string, error), failures *[]string) func(ctx context.Context, cases []Case) ([]string, []time.Duration, error) {
	return func(ctx context.Context, cases []Case) ([]string, []time.Duration, error) {
		texts := make([]string, len(cases))
		times := make([]time.Duration, len(cases))
		for i, c := range cases {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			t0 := time.Now()
			s, err := f(c)
			times[i] = time.Since(t0)
			if err != nil && failures != nil {
				*failures = append(*failures, fmt.Sprintf("%s: %v", c.ID, err))
			}
			texts[i] = s
		}
		return texts, times, nil
	}
}

// Row is the evaluation of one extractor on one part of the pages.
type Row struct {
	Name, Settings string
	Part           string // HalfTune, HalfReport or "all"
	Result
	// PagesPerCPUSecond is the speed over all pages (user + system CPU time of the
	// process during Run); MaxPage the slowest page's wall time (0 when unknown).
	PagesPerCPUSecond float64
	MaxPage           time.Duration
	MaxPageID         string
}

// Evaluation is the outcome of one extractor.
type Evaluation struct {
	Extractor Extractor
	Texts     []string
	Scores    []PageScore
	Rows      []Row // all, tune, report
}

// Evaluate runs every extractor on the cases, one after the other, and scores them.
func Evaluate(ctx context.Context, cases []Case, exs []Extractor) ([]Evaluation, error) {
	var out []Evaluation
	for _, ex := range exs {
		c0, w0 := cpuTime(), time.Now()
		texts, times, err := ex.Run(ctx, cases)
		cpu, wall := cpuTime()-c0, time.Since(w0)
		if err != nil {
			return out, fmt.Errorf("articleeval: %s: %w", ex.Name, err)
		}
		if len(texts) != len(cases) {
			return out, fmt.Errorf("articleeval: %s returned %d texts for %d pages", ex.Name, len(texts), len(cases))
		}
		ev := Evaluation{Extractor: ex, Texts: texts, Scores: make([]PageScore, len(cases))}
		for i, c := range cases {
			ev.Scores[i] = ScorePage(c.Truth, texts[i])
		}
		if cpu <= 0 {
			cpu = wall
		}
		speed := float64(len(cases)) / cpu.Seconds()
		var maxT time.Duration
		maxID := ""
		for i, t := range times {
			if t > maxT {
				maxT, maxID = t, cases[i].ID
			}
		}
		for _, part := range []string{"all", HalfTune, HalfReport} {
			var sc []PageScore
			for i, c := range cases {
				if part == "all" || Half(c.Host) == part {
					sc = append(sc, ev.Scores[i])
				}
			}
			ev.Rows = append(ev.Rows, Row{Name: ex.Name, Settings: ex.Settings, Part: part,
				Result: Aggregate(sc), PagesPerCPUSecond: speed, MaxPage: maxT, MaxPageID: maxID})
		}
		out = append(out, ev)
	}
	return out, nil
}

// WriteTable writes the rows as a Markdown table, one line per extractor and part.
func WriteTable(w io.Writer, evs []Evaluation) error {
	var b strings.Builder
	b.WriteString("| extractor | settings | pages | P | R | F1 ± SD | accuracy | empty | pages / CPU s | slowest page |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, ev := range evs {
		for _, r := range ev.Rows {
			slow := "–"
			if r.MaxPage > 0 {
				slow = fmt.Sprintf("%.0f ms", float64(r.MaxPage)/float64(time.Millisecond))
			}
			fmt.Fprintf(&b, "| %s | %s | %s %d | %.3f | %.3f | %.3f ± %.3f | %.3f | %d | %.0f | %s |\n",
				r.Name, r.Settings, r.Part, r.N, r.P, r.R, r.F1, r.SDF1, r.Acc, r.Empty, r.PagesPerCPUSecond, slow)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
