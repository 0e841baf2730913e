package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Summary is what a run did, for the terminal, --json and trawl batch.
type Summary struct {
	URL       string         `json:"url"`
	Dir       string         `json:"dir"`
	Probes    int            `json:"probes"`
	Pages     int            `json:"pages"`
	Records   int            `json:"records"`
	Features  int            `json:"features"`
	Mapped    []string       `json:"mapped_fields"`
	Class     string         `json:"class,omitempty"`
	Relations []string       `json:"aligned_relations"`
	Links     int            `json:"links"`
	NewFacts  int            `json:"new_facts"`
	Rounds    []RoundSummary `json:"rounds"`
	Report    string         `json:"report,omitempty"`
	Seconds   float64        `json:"seconds"`
}

// summarize tells what the run found, from the stages' results.
func (p *Pipeline) summarize(st roundState) (*Summary, error) {
	sum := &Summary{URL: p.o.URL, Dir: p.o.Dir, Rounds: st.History, Mapped: []string{}, Relations: []string{}}
	if probes, err := p.st.Probes(); err == nil {
		sum.Probes = len(probes)
		for _, pr := range probes {
			sum.Pages += len(pr.Pages)
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
