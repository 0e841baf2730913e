package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/sparql"
	"github.com/trawl-dev/trawl/schema"
)

// DemoKBName names the embedded demo KB in the alignment files.
const DemoKBName = "demo KB (embedded)"

// alignStage aligns the record graph with the reference KB and writes the
// understanding and the enrichment.
func (p *Pipeline) alignStage() stage {
	return stage{
		name:    "align",
		inputs:  []string{rundir.SchemaFile, rundir.RecordsFile},
		outputs: []string{rundir.AlignmentTSV, rundir.LinksFile, rundir.UnderstandingFile, rundir.EnrichmentFile},
		options: struct {
			KB     string
			Align  align.Options
			Enrich align.EnrichOptions
		}{p.o.KB, p.o.Align, p.o.Enrich},
		run: func(ctx context.Context) error {
			_, err := p.align(ctx)
			return err
		},
	}
}

// Alignment is what the align stage computed.
type Alignment struct {
	Result     *align.Result
	Enrichment *align.Enrichment
	// KB1 and KB2 name the two sides as the alignment files do.
	KB1, KB2 string
}

// Align runs the align stage alone ('trawl align RUN_DIR') and returns the alignment.
func (p *Pipeline) Align(ctx context.Context) (*Alignment, error) {
	if err := p.RunStage(ctx, "align"); err != nil {
		return nil, err
	}
	return p.st.alignment, nil
}

// align is the work of the align stage: PARIS between the record stars of the labeled
// graph (not its schema and provenance triples, which are no evidence about the
// records) and the reference KB; alignment.tsv, alignment.rdf, links.nt, options.json
// and run.json; then the understanding and the enrichment.
func (p *Pipeline) align(ctx context.Context) (*Alignment, error) {
	kb, err := p.reference(ctx)
	if err != nil {
		return nil, err
	}
	l, err := p.labeled(ctx)
	if err != nil {
		return nil, err
	}
	s, err := p.st.Schema()
	if err != nil {
		return nil, err
	}
	if len(l.Records) == 0 {
		return nil, fmt.Errorf("the labeled graph of %s has no record triples: nothing to align", p.o.Dir)
	}
	kb1, err := graph.NewMemory(l.Records)
	if err != nil {
		return nil, err
	}
	ao := p.o.Align
	ao.Logger = p.log
	p.meter.counts("iterations", ao.MaxIterations)
	progress := ao.Progress
	ao.Progress = func(it align.IterationStats) {
		p.meter.add(false)
		if progress != nil {
			progress(it)
		}
	}
	res, err := align.Align(ctx, kb1, kb, ao)
	if err != nil {
		return nil, err
	}
	// KB1 is named relative to the run directory, so that the files do not depend on
	// where the directory is.
	a := &Alignment{Result: res, KB1: rundir.GraphFile, KB2: p.kbName}
	if err := align.WriteDir(p.o.Dir, res, align.RunInfo{KB1: a.KB1, KB2: a.KB2}); err != nil {
		return nil, err
	}
	eo := p.o.Enrich
	eo.Logger = p.log
	eo.Source = l.NS.SourceIRI()
	eo.RecordClass = l.NS.Class().Value
	eo.LinkThreshold = ao.LinkThreshold
	eo.ConfidencePredicate = l.NS.Vocab("confidence").Value
	eo.FeatureLabels = featureLabels(s, l.NS)
	if a.Enrichment, err = align.Enrich(ctx, kb1, kb, res, eo); err != nil {
		return nil, err
	}
	if err := align.WriteEnrichmentDir(p.o.Dir, a.Enrichment); err != nil {
		return nil, err
	}
	p.st.alignment, p.st.understanding = a, a.Enrichment.Understanding
	return a, nil
}

// featureLabels maps each feature that a form field maps to (by its predicate) to the
// feature's own label, from which a new relation is named: its label from the page (a
// header, a "Label:" prefix) or, without one, its name. The label of the form field it
// maps to is never used: a search box's "books matching" or a "limit" field says nothing
// about what the feature holds.
func featureLabels(s *schema.Schema, ns graph.Namespace) map[string]string {
	byName := map[string]*schema.Feature{}
	for i := range s.Features {
		byName[s.Features[i].Name] = &s.Features[i]
	}
	m := map[string]string{}
	for _, mp := range s.Mapping {
		f := byName[mp.Feature]
		if f == nil {
			continue
		}
		pred := ns.Predicate(mp.Feature).Value
		if _, ok := m[pred]; !ok {
			m[pred] = featureLabel(s, f)
		}
	}
	return m
}

// featureLabel is the label of a feature that did not come from a form field: its
// label, the best supported of its other labels, else its name unless the name was made
// from the field's label, else its value type and rank ("string value 3").
func featureLabel(s *schema.Schema, f *schema.Feature) string {
	clean := func(l string) string { return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), ":")) }
	if f.Label != "" && f.LabelSource != "field" {
		return clean(f.Label)
	}
	best, support := "", -1
	for _, l := range f.Labels {
		if l.Source != "field" && clean(l.Text) != "" && l.Support > support {
			best, support = clean(l.Text), l.Support
		}
	}
	if best != "" {
		return best
	}
	if f.LabelSource != "field" {
		return strings.ReplaceAll(f.Name, "-", " ")
	}
	rank := slices.IndexFunc(s.Features, func(g schema.Feature) bool { return g.Name == f.Name }) + 1
	return fmt.Sprintf("%s value %d", f.Type, rank)
}

// OpenReference opens the reference KB: the embedded demo KB when path is "", else
// LoadKB. It returns the KB, its name for the alignment files, and a function that
// releases it. cache is where a SPARQL endpoint's relation statistics are kept (the
// run directory's rundir.SPARQLCacheFile); "" means the user's cache directory.
func OpenReference(ctx context.Context, path, cache string, log *slog.Logger) (align.KB, string, func(), error) {
	if isEndpoint(path) {
		kb, _, closeKB, err := openEndpoint(ctx, path, "KB", cache, log)
		return kb, path, closeKB, err
	}
	if path != "" {
		kb, _, closeKB, err := LoadKB(ctx, path, "KB", log)
		return kb, path, closeKB, err
	}
	opts := ontology.DefaultOptions()
	opts.Logger = log
	st, err := ontology.OpenDemo(ctx, opts)
	if err != nil {
		return nil, "", nil, fmt.Errorf("open the demo KB: %w", err)
	}
	return st, DemoKBName, func() { _ = st.Close() }, nil
}

// LoadKB opens a KB: an N-Triples file read into memory, or a Badger KB directory
// written by 'trawl kb load'; role names it in errors ("KB1", "--kb"). It checks that
// the KB can be aligned at all, and returns its number of facts and a function that
// releases it.
//
// A path that is an http(s) URL is a SPARQL endpoint (package ontology/sparql); a
// fragment "#graph=IRI" names the graph that holds the KB (fragments never reach the
// server). Its relation statistics are cached under the user's cache directory.
func LoadKB(ctx context.Context, path, role string, log *slog.Logger) (align.KB, int64, func(), error) {
	if isEndpoint(path) {
		return openEndpoint(ctx, path, role, "", log)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", role, err)
	}
	if st.IsDir() {
		return loadStore(path, role, log)
	}
	m, err := graph.LoadMemory(ctx, path, graph.MemoryOptions{Logger: log})
	if err != nil {
		return nil, 0, nil, err
	}
	switch {
	case m.Triples() == 0 && m.TaxonomyTriples() == 0:
		return nil, 0, nil, fmt.Errorf("%s: %s holds no triples", role, path)
	case m.Triples() == 0:
		return nil, 0, nil, fmt.Errorf("%s: %s holds only rdf:type and rdfs:subClassOf facts, which PARIS does not use as evidence", role, path)
	case m.LiteralCount() == 0:
		return nil, 0, nil, fmt.Errorf("%s: %s has no literal values; PARIS starts from literals the two KBs share (names, titles, dates), so nothing can align", role, path)
	}
	return m, int64(m.Triples()), func() {}, nil
}

// loadStore opens a Badger KB directory.
func loadStore(path, role string, log *slog.Logger) (align.KB, int64, func(), error) {
	opts := ontology.DefaultOptions()
	opts.Logger = log
	s, err := ontology.Open(path, opts)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", role, err)
	}
	stats := s.Stats()
	switch {
	case stats.Facts == 0:
		_ = s.Close()
		return nil, 0, nil, fmt.Errorf("%s: the KB in %s holds no facts", role, path)
	case stats.Literals == 0:
		_ = s.Close()
		return nil, 0, nil, fmt.Errorf("%s: the KB in %s has no literal values; PARIS starts from literals the two KBs share (names, titles, dates), so nothing can align", role, path)
	}
	return s, stats.Facts, func() { _ = s.Close() }, nil
}

func isEndpoint(path string) bool {
	return strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://")
}

// openEndpoint opens a SPARQL endpoint as a KB, its relation statistics cached in the
// file cache ("": under the user's cache directory).
func openEndpoint(ctx context.Context, raw, role, cache string, log *slog.Logger) (align.KB, int64, func(), error) {
	endpoint, frag, _ := strings.Cut(raw, "#")
	o := sparql.DefaultOptions()
	o.Logger = log
	if frag != "" {
		g, ok := strings.CutPrefix(frag, "graph=")
		if !ok {
			return nil, 0, nil, fmt.Errorf("%s: %s: the fragment must be #graph=IRI, got #%s", role, raw, frag)
		}
		o.Graph = g
	}
	o.Cache = cache
	if dir, err := os.UserCacheDir(); err == nil && cache == "" {
		sum := sha256.Sum256([]byte(endpoint + "\n" + o.Graph))
		o.Cache = filepath.Join(dir, "trawl", "sparql", hex.EncodeToString(sum[:8])+".json")
	}
	kb, err := sparql.Open(ctx, endpoint, o)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: %w", role, err)
	}
	return kb, kb.Facts(), func() {
		st := kb.Stats()
		log.Info("sparql endpoint", "endpoint", endpoint, "queries", st.Queries, "retries", st.Retries, "time", st.Time)
	}, nil
}

// LoadGolds reads the gold files at paths against kb1 and kb2 and merges them; it
// returns nil when paths is empty.
func LoadGolds(ctx context.Context, paths []string, kb1, kb2 align.GoldKB) (*align.Gold, error) {
	var gold *align.Gold
	for _, path := range paths {
		g, err := align.LoadGold(ctx, path, kb1, kb2)
		if err != nil {
			return nil, err
		}
		if gold == nil {
			gold = g
		} else {
			gold.Merge(g)
		}
	}
	return gold, nil
}
