package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/schema"
)

// Summary is what a run did, for the terminal, --json and trawl batch.
type Summary struct {
	URL    string `json:"url"`
	Dir    string `json:"dir"`
	Probes int    `json:"probes"`
	Pages  int    `json:"pages"`
	// Failed counts the probes that ended in an error (after their attempts), and
	// Unreadable the result pages of probes.jsonl that cannot be read; FirstError is the
	// error of the first failed probe. Either makes the run partial (exit status 3).
	Failed     int    `json:"failed_probes"`
	Unreadable int    `json:"unreadable_pages"`
	FirstError string `json:"first_error,omitempty"`
	// Unanswered counts the probes with every text box empty that the site answered
	// with its form page unchanged (probe.Probe.Unanswered): the site does not answer
	// an empty query. They are not failures; Unanswered says why the first one had
	// no result page.
	UnansweredProbes int    `json:"unanswered_probes"`
	Unanswered       string `json:"unanswered,omitempty"`
	// Records is the number of records isolated on the result pages (records.jsonl),
	// the number the report and the graph's record count show too.
	Records   int            `json:"records"`
	Features  int            `json:"features"`
	Mapped    []string       `json:"mapped_fields"`
	Class     string         `json:"class,omitempty"`
	Relations []string       `json:"aligned_relations"`
	Links     int            `json:"links"`
	NewFacts  int            `json:"new_facts"`
	Rounds    []RoundSummary `json:"rounds"`
	// GuidedRounds says why the guided rounds stopped, or why none ran ("no text field
	// maps to a record feature understood as a KB relation (…)").
	GuidedRounds string  `json:"guided_rounds,omitempty"`
	Report       string  `json:"report,omitempty"`
	Seconds      float64 `json:"seconds"`
}

// WriteText writes what a run found, for a person.
func (s *Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s\n", s.URL)
	fmt.Fprintf(w, "  run directory   %s\n", s.Dir)
	switch {
	case s.Failed > 0 || s.Unreadable > 0:
		fmt.Fprintf(w, "  probes          %d (%d failed), %d result pages (%d unreadable)\n", s.Probes, s.Failed, s.Pages, s.Unreadable)
	default:
		fmt.Fprintf(w, "  probes          %d (%d result pages)\n", s.Probes, s.Pages)
	}
	if s.UnansweredProbes > 0 {
		fmt.Fprintf(w, "  not answered    %d (the site does not answer an empty query: the form page came back unchanged)\n", s.UnansweredProbes)
	}
	fmt.Fprintf(w, "  records         %d in %d features\n", s.Records, s.Features)
	if len(s.Mapped) > 0 {
		fmt.Fprintf(w, "  form → records  %s\n", strings.Join(s.Mapped, "; "))
	}
	if s.Class != "" {
		fmt.Fprintf(w, "  record class    %s\n", s.Class)
	}
	for i, r := range s.Relations {
		label := ""
		if i == 0 {
			label = "aligned"
		}
		fmt.Fprintf(w, "  %-15s %s\n", label, r)
	}
	fmt.Fprintf(w, "  sameAs links    %d\n", s.Links)
	fmt.Fprintf(w, "  new facts       %d (enrichment.nt)\n", s.NewFacts)
	for _, r := range s.Rounds {
		if r.Round == 0 {
			continue
		}
		var fields []string
		for f, vs := range r.Plan {
			fields = append(fields, fmt.Sprintf("%s ×%d", f, len(vs)))
		}
		slices.Sort(fields)
		fmt.Fprintf(w, "  guided round %d  %s → %d records, %d links, %d relations (mean confidence %.2f)\n",
			r.Round, strings.Join(fields, ", "), r.Records, r.Links, r.Relations, r.Confidence)
	}
	if s.GuidedRounds != "" {
		ran := 0
		for _, r := range s.Rounds {
			if r.Round > 0 {
				ran++
			}
		}
		what := "stopped"
		if ran == 0 {
			what = "none ran"
		}
		fmt.Fprintf(w, "  guided rounds   %s: %s\n", what, s.GuidedRounds)
	}
	if s.Report != "" {
		fmt.Fprintf(w, "  report          %s\n", s.Report)
	}
	fmt.Fprintf(w, "  time            %.1fs\n", s.Seconds)
}

// summarize tells what the run found, from the stages' results.
func (p *Pipeline) summarize(st roundState) (*Summary, error) {
	sum := &Summary{URL: p.o.URL, Dir: p.o.Dir, Rounds: st.History, Mapped: []string{}, Relations: []string{}, GuidedRounds: st.Stopped}
	if probes, err := p.st.Probes(); err == nil {
		sum.Probes = len(probes)
		for _, pr := range probes {
			sum.Pages += len(pr.Pages)
			if pr.Error != "" {
				sum.Failed++
				if sum.FirstError == "" {
					sum.FirstError = fmt.Sprintf("probe %d: %s", pr.N, pr.Error)
				}
			} else if pr.Unanswered != "" {
				sum.UnansweredProbes++
				if sum.Unanswered == "" {
					sum.Unanswered = fmt.Sprintf("probe %d: %s", pr.N, pr.Unanswered)
				}
			}
			for _, ref := range pr.Pages {
				if path, err := rundir.Path(p.o.Dir, ref.File); err != nil {
					sum.Unreadable++
				} else if _, err := os.Stat(path); err != nil {
					sum.Unreadable++
				}
			}
		}
	}
	if len(st.History) > 0 {
		last := st.History[len(st.History)-1]
		sum.Records, sum.Links = last.Records, last.Links
	}
	if s, err := p.st.Schema(); err == nil {
		sum.Features = len(s.Features)
		for _, m := range s.Mapping {
			sum.Mapped = append(sum.Mapped, fmt.Sprintf("%s → %s (%s)", m.Field, m.Feature, m.Relation))
		}
	}
	u, err := p.st.Understanding()
	if errors.Is(err, fs.ErrNotExist) {
		return sum, nil
	}
	if err != nil {
		return nil, err
	}
	for _, c := range u.Classes {
		if c.Aligned != "" {
			sum.Class = fmt.Sprintf("%s ⊆ %s (%.2f)", c.Class, c.Aligned, c.Confidence)
		}
	}
	for _, r := range u.Relations {
		if r.Aligned != nil {
			sum.Relations = append(sum.Relations, fmt.Sprintf("%s ⊆ %s (%.2f, n=%.0f)", shortIRI(r.Relation), r.Aligned.Relation, r.Aligned.Confidence, r.Aligned.N))
		}
	}
	if u.Enrichment != nil {
		sum.NewFacts = u.Enrichment.Facts
	}
	return sum, nil
}

// shortIRI returns the last path segment of an IRI, for messages.
func shortIRI(iri string) string {
	if i := strings.LastIndexAny(iri, "/#"); i >= 0 && i < len(iri)-1 {
		return iri[i+1:]
	}
	return iri
}

// FieldUse says what a form field takes, in the KB's terms: the record feature it maps
// to and the KB relation (or join) that feature aligned to.
type FieldUse struct {
	Field    string  `json:"field"`
	Label    string  `json:"label,omitempty"`
	Feature  string  `json:"feature"`
	Relation string  `json:"kb_relation,omitempty"`
	Conf     float64 `json:"confidence,omitempty"`
}

// FieldUses lists the mapped fields of the run, by field name, from its schema,
// labeled graph and understanding.
func (p *Pipeline) FieldUses(ctx context.Context) ([]FieldUse, error) {
	s, err := p.st.Schema()
	if err != nil {
		return nil, err
	}
	u, err := p.st.Understanding()
	if err != nil {
		return nil, err
	}
	l, err := p.labeled(ctx)
	if err != nil {
		return nil, err
	}
	byPred := map[string]*align.RelationScore{}
	for i := range u.Relations {
		byPred[u.Relations[i].Relation] = u.Relations[i].Aligned
	}
	var out []FieldUse
	for _, m := range s.Mapping {
		f := FieldUse{Field: m.Field, Label: m.FieldLabel, Feature: m.Feature}
		if a := byPred[l.NS.Predicate(m.Feature).Value]; a != nil {
			f.Relation, f.Conf = a.Relation, a.Confidence
		}
		out = append(out, f)
	}
	slices.SortStableFunc(out, func(a, b FieldUse) int { return strings.Compare(a.Field, b.Field) })
	return out, nil
}

// CountTriples parses an N-Triples file and returns its number of triples, or the
// first error with its line.
func CountTriples(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }()
	r := graph.NewReader(f, path)
	n := 0
	for {
		_, err := r.Read()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// WriteSchemaText writes an output schema as a table, for a person; path names its
// file.
func WriteSchemaText(w io.Writer, s *schema.Schema, path string) error {
	fmt.Fprintf(w, "%s: %d features from %d records on %d pages (source %s)\n", path, len(s.Features), s.Stats.Records, s.Stats.Pages, s.Source.ID)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FEATURE\tTYPE\tLABEL\tRECORDS\tSAMPLES")
	for _, f := range s.Features {
		label := f.Label
		if label != "" {
			label += " (" + f.LabelSource + ")"
		}
		samples, _ := json.Marshal(f.Samples[:min(3, len(f.Samples))])
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", f.Name, f.Type, label, f.Records, samples)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Mapping) > 0 {
		fmt.Fprintln(w, "mapping:")
		for _, m := range s.Mapping {
			fmt.Fprintf(w, "  %s -> %s  (%s, score %.2f over %d)\n", m.Field, m.Feature, m.Method, m.Score, m.Evidence)
		}
	}
	var dropped []string
	for _, d := range s.Dropped {
		if d.Reason != schema.DropComposite {
			dropped = append(dropped, d.Reason)
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "dropped %d candidates: %s\n", len(dropped), strings.Join(dropped, ", "))
	}
	return nil
}

// StagePrinter returns a Progress function that prints one line per stage to w.
func StagePrinter(w io.Writer) func(Event) {
	return func(ev Event) {
		switch {
		case ev.Skipped:
			fmt.Fprintf(w, "  %-10s already done\n", ev.Stage)
		case ev.Err != nil:
			fmt.Fprintf(w, "  %-10s failed after %v\n", ev.Stage, ev.Elapsed.Round(time.Millisecond))
		default:
			fmt.Fprintf(w, "  %-10s %v\n", ev.Stage, ev.Elapsed.Round(time.Millisecond))
		}
	}
}
