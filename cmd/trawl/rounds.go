package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// Ontology-guided probing (thesis ch. 3 §3.6, the cross-fertilisation): once a form's
// text field maps to a record feature that aligned to a KB relation (a title field to
// rdfs:label, an author field to schema:author / rdfs:label), the KB knows values worth
// typing into it. Each round takes such values from instances of the aligned class,
// probes with them, and runs extraction, schema, graph and alignment again; rounds
// stop when the alignment no longer improves or the budget is spent.
//
// Resumability: a round's plan is fixed in .trawl/round-<r>.plan.json before its probes
// run, the guided probes replace (not add to) the probes of the same round, and the
// state of the rounds is in .trawl/rounds.json, so a run killed at any moment resumes
// with the same plan and ends with the same files.

const roundsFile = markerDir + "/rounds.json"

// roundState is .trawl/rounds.json.
type roundState struct {
	// Completed is the last completed guided round (0: only the agnostic round).
	Completed int `json:"completed"`
	// History has one summary per completed round, the agnostic round first.
	History []roundSummary `json:"history"`
	// Stopped says why no further round runs, once decided.
	Stopped string `json:"stopped,omitempty"`
}

// roundSummary measures the alignment after one round.
type roundSummary struct {
	Round   int `json:"round"`
	Probes  int `json:"probes"`
	Records int `json:"records"`
	// Links is the number of records linked to KB entities (sameAs ≥ threshold).
	Links int `json:"links"`
	// Relations is the number of record features aligned to a KB relation or join;
	// Confidence their mean confidence.
	Relations  int     `json:"relations"`
	Confidence float64 `json:"confidence"`
	// Plan is what the round probed: field → KB values (nil for the agnostic round).
	Plan map[string][]string `json:"plan,omitempty"`
}

// improves reports whether this round's alignment is better than prev's: more aligned
// relations, more links, or a higher mean relation confidence.
func (s roundSummary) improves(prev roundSummary) bool {
	return s.Relations > prev.Relations || s.Links > prev.Links || s.Confidence > prev.Confidence+0.005
}

func readRoundState(dir string) (roundState, error) {
	var st roundState
	err := readJSONFile(filepath.Join(dir, roundsFile), &st)
	if errors.Is(err, fs.ErrNotExist) {
		return roundState{}, nil
	}
	return st, err
}

func writeRoundState(dir string, st roundState) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, roundsFile), append(b, '\n'))
}

// measureRound reads the outcome of a round from the run directory.
func measureRound(dir string, r int, plan *guidedPlan) (roundSummary, error) {
	sum := roundSummary{Round: r}
	if plan != nil {
		sum.Plan = plan.Values
	}
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		return sum, err
	}
	sum.Probes = len(probes)
	var u align.Understanding
	if err := readJSONFile(filepath.Join(dir, "understanding.json"), &u); err != nil {
		return sum, err
	}
	sum.Records, sum.Links = u.Records, u.Linked
	total := 0.0
	for _, rel := range u.Relations {
		if rel.Aligned != nil {
			sum.Relations++
			total += rel.Aligned.Confidence
		}
	}
	if sum.Relations > 0 {
		sum.Confidence = total / float64(sum.Relations)
	}
	return sum, nil
}

// guidedPlan is .trawl/round-<r>.plan.json: the KB values a round types into the
// form's mapped text fields.
type guidedPlan struct {
	Round int `json:"round"`
	// Values maps a field name to the values to submit, one probe each.
	Values map[string][]string `json:"values"`
	// Paths says, per field, which KB class and relation the values come from.
	Paths map[string]string `json:"paths,omitempty"`
	// Reason says why the plan is empty.
	Reason string `json:"reason,omitempty"`
}

func planFile(r int) string { return filepath.Join(markerDir, fmt.Sprintf("round-%d.plan.json", r)) }

// guidedPlan returns the plan of round r: the saved one if the round already started,
// otherwise a new one made from the run directory's current alignment, then saved.
func (p *pipeline) guidedPlan(ctx context.Context, r int) (*guidedPlan, error) {
	path := filepath.Join(p.o.Dir, planFile(r))
	var saved guidedPlan
	if err := readJSONFile(path, &saved); err == nil {
		return &saved, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	plan, err := p.makeGuidedPlan(ctx, r)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		return nil, err
	}
	return plan, writeFileAtomic(path, append(b, '\n'))
}

// makeGuidedPlan chooses, for every text field mapped to a feature that aligned to a
// KB relation or join, values of that relation on instances of the aligned KB class
// that the source has not shown yet.
func (p *pipeline) makeGuidedPlan(ctx context.Context, r int) (*guidedPlan, error) {
	plan := &guidedPlan{Round: r, Values: map[string][]string{}, Paths: map[string]string{}}
	dir := p.o.Dir
	kb, err := p.reference(ctx)
	if err != nil {
		return nil, err
	}
	form, err := probe.ReadForm(dir)
	if err != nil {
		return nil, err
	}
	l, s, err := p.labeled(ctx)
	if err != nil {
		return nil, err
	}
	var u align.Understanding
	if err := readJSONFile(filepath.Join(dir, "understanding.json"), &u); err != nil {
		return nil, err
	}
	class := ""
	for _, c := range u.Classes {
		if c.Aligned != "" {
			class = c.Aligned
		}
	}
	if class == "" {
		// PARIS's damping keeps instance confidences below the link threshold while few
		// facts support the relations (a small first sample): take the class most of the
		// likely partners have, so that guided probing can gather the facts it lacks.
		c, err := classOfPartners(ctx, kb, dir, 0.5)
		if err != nil {
			return nil, err
		}
		class = c
	}
	if class == "" {
		plan.Reason = "the records' class aligned to no KB class, so the KB cannot say which values to try"
		return plan, nil
	}
	aligned := map[string]*align.RelationScore{}
	for i := range u.Relations {
		if a := u.Relations[i].Aligned; a != nil {
			aligned[u.Relations[i].Relation] = a
		}
	}
	known := knownValues(dir, s)
	fields := map[string]probe.Field{}
	for _, f := range form.Fields {
		fields[f.Name] = f
	}
	// Values already typed into a field (by any probe) are not tried there again.
	tried := map[string]bool{}
	if probes, err := probe.ReadProbes(dir); err == nil {
		for _, pr := range probes {
			for f, v := range pr.Assignment {
				tried[f+"\x00"+textnorm.Literal(v)] = true
			}
		}
	}
	for q := 1; q < r; q++ {
		var prev guidedPlan
		if err := readJSONFile(filepath.Join(dir, planFile(q)), &prev); err == nil {
			for f, vs := range prev.Values {
				for _, v := range vs {
					tried[f+"\x00"+textnorm.Literal(v)] = true
				}
			}
		}
	}
	linked, err := linkedEntities(ctx, kb, dir)
	if err != nil {
		return nil, err
	}
	mappings := slices.Clone(s.Mapping)
	sort.SliceStable(mappings, func(i, j int) bool { return mappings[i].Field < mappings[j].Field })
	for _, m := range mappings {
		fd, ok := fields[m.Field]
		if !ok || !fd.IsText() || fd.Type == "number" || m.Relation != schema.RelContains {
			continue
		}
		if _, done := plan.Values[m.Field]; done {
			continue
		}
		a := aligned[l.NS.Predicate(m.Feature).Value]
		if a == nil {
			continue
		}
		path, ok := align.ParsePathName(kb, a.Relation)
		if !ok {
			continue
		}
		vals, err := kbValues(ctx, kb, class, path, 40*p.o.GuidedValues, linked)
		if err != nil {
			return nil, err
		}
		var pick []string
		for _, v := range vals {
			key := textnorm.Literal(v)
			// A value that names one record (a title) is worth typing only if the source
			// has not shown it; a value shared by records (an author, through a join) may
			// list records not seen yet even when it has been shown.
			shown := known[m.Feature][key] && !path.IsJoin()
			if key == "" || shown || tried[m.Field+"\x00"+key] || probe.CheckValue(fd, v) != nil {
				continue
			}
			tried[m.Field+"\x00"+key] = true
			pick = append(pick, v)
			if len(pick) == p.o.GuidedValues {
				break
			}
		}
		if len(pick) > 0 {
			plan.Values[m.Field] = pick
			plan.Paths[m.Field] = class + " → " + a.Relation
		}
	}
	if len(plan.Values) == 0 {
		plan.Reason = "no text field maps to a feature aligned with the KB, or the KB has no value left to try"
	}
	return plan, nil
}

// knownValues returns, per feature name, the normal forms of the values the records
// already show.
func knownValues(dir string, s *schema.Schema) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	f, err := os.Open(filepath.Join(dir, records.RecordsFile))
	if err != nil {
		return out
	}
	defer func() { _ = f.Close() }()
	recs, err := records.ReadRecords(f, records.RecordsFile)
	if err != nil {
		return out
	}
	for _, rec := range recs {
		for i, vs := range s.Values(rec) {
			if i >= len(s.Features) {
				break
			}
			name := s.Features[i].Name
			if out[name] == nil {
				out[name] = map[string]bool{}
			}
			for _, v := range vs {
				out[name][textnorm.Literal(v)] = true
			}
		}
	}
	return out
}

// classSampler is what the Badger store offers for sampling instances quickly.
type classSampler interface {
	SampleClass(ctx context.Context, c graph.ID, n int) ([]graph.ID, error)
}

// classOfPartners returns the KB class that carries most of the confidence of the
// instance pairs of alignment.tsv at or above minConf (at least half of it), or "".
func classOfPartners(ctx context.Context, kb align.KB, dir string, minConf float64) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "alignment.tsv"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	weight := map[graph.ID]float64{}
	total := 0.0
	for line := range strings.Lines(string(b)) {
		f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
		if len(f) != 4 || f[0] != "instance" {
			continue
		}
		conf, err := strconv.ParseFloat(f[3], 64)
		if err != nil || conf < minConf {
			continue
		}
		id, ok, err := kb.Lookup(ctx, graph.NewIRI(f[2]))
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		types, err := kb.Types(ctx, id)
		if err != nil {
			return "", err
		}
		total += conf
		for _, c := range types {
			weight[c] += conf
		}
	}
	best, bestW := graph.ID(0), 0.0
	for c, w := range weight {
		if w > bestW || (w == bestW && c < best) {
			best, bestW = c, w
		}
	}
	if total == 0 || bestW < total/2 {
		return "", nil
	}
	t, err := kb.Term(ctx, best)
	if err != nil {
		return "", err
	}
	return t.Value, nil
}

// linkedEntities returns the KB entities the records of the run directory are linked
// to (links.nt), in file order.
func linkedEntities(ctx context.Context, kb align.KB, dir string) ([]graph.ID, error) {
	f, err := os.Open(filepath.Join(dir, "links.nt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var out []graph.ID
	rd := graph.NewReader(f, filepath.Join(dir, "links.nt"))
	for {
		t, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if t.P.Value != graph.OWLSameAs {
			continue
		}
		if id, ok, err := kb.Lookup(ctx, t.O); err == nil && ok {
			out = append(out, id)
		}
	}
}

// Bounds of the neighbourhood walk that ranks instances by their closeness to the
// linked entities.
const (
	maxLinkedWalk   = 200 // linked entities walked from
	maxHubDegree    = 500 // a middle node with more edges (a country, a language) is skipped
	maxEdgesPerNode = 64
)

// neighbourScores counts, for each entity two steps away from a linked entity through a
// non-literal middle node (a book of the same author, a book of the same publisher),
// how many such paths lead to it. Instances related to what the source has shown are
// more likely to be in the source too (thesis ch. 3 §3.6: the KB guides the probing).
func neighbourScores(ctx context.Context, kb align.KB, linked []graph.ID) (map[graph.ID]int, error) {
	score := map[graph.ID]int{}
	isLinked := map[graph.ID]bool{}
	for _, e := range linked {
		isLinked[e] = true
	}
	edgesOf := func(n graph.ID, limit int) ([]graph.Edge, error) {
		var es []graph.Edge
		for e, err := range kb.Edges(ctx, n) {
			if err != nil {
				return nil, err
			}
			es = append(es, e)
			if len(es) > limit {
				break
			}
		}
		return es, nil
	}
	for i, e := range linked {
		if i == maxLinkedWalk {
			break
		}
		first, err := edgesOf(e, maxEdgesPerNode)
		if err != nil {
			return nil, err
		}
		for _, m := range first {
			if kb.IsLiteral(m.Node) {
				continue
			}
			second, err := edgesOf(m.Node, maxHubDegree)
			if err != nil {
				return nil, err
			}
			if len(second) > maxHubDegree {
				continue
			}
			for _, x := range second {
				if x.Node != e && !isLinked[x.Node] && !kb.IsLiteral(x.Node) {
					score[x.Node]++
				}
			}
		}
	}
	return score, nil
}

// kbValues returns the literal values reached along path from up to n instances of
// the KB class: first the instances closest to the linked entities (neighbourScores),
// then instances spread over the class, in a deterministic order.
func kbValues(ctx context.Context, kb align.KB, class string, path align.Path, n int, linked []graph.ID) ([]string, error) {
	c, ok, err := kb.Lookup(ctx, graph.NewIRI(class))
	if err != nil || !ok {
		return nil, err
	}
	var inst []graph.ID
	if len(linked) > 0 {
		scores, err := neighbourScores(ctx, kb, linked)
		if err != nil {
			return nil, err
		}
		var near []graph.ID
		for x := range scores {
			near = append(near, x)
		}
		sort.Slice(near, func(i, j int) bool {
			if scores[near[i]] != scores[near[j]] {
				return scores[near[i]] > scores[near[j]]
			}
			return near[i] < near[j]
		})
		for _, x := range near {
			if len(inst) == n {
				break
			}
			types, err := kb.Types(ctx, x)
			if err != nil {
				return nil, err
			}
			if slices.Contains(types, c) {
				inst = append(inst, x)
			}
		}
	}
	var spread []graph.ID
	if cs, ok := kb.(classSampler); ok {
		if spread, err = cs.SampleClass(ctx, c, n); err != nil {
			return nil, err
		}
	} else {
		var all []graph.ID
		for id, err := range kb.Instances(ctx, c) {
			if err != nil {
				return nil, err
			}
			all = append(all, id)
		}
		step := max(1, len(all)/max(n, 1))
		for i := 0; i < len(all) && len(spread) < n; i += step {
			spread = append(spread, all[i])
		}
	}
	for _, x := range spread {
		if !slices.Contains(inst, x) && !slices.Contains(linked, x) {
			inst = append(inst, x)
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, x := range inst {
		nodes := []graph.ID{x}
		for _, rel := range path.Steps() {
			var next []graph.ID
			for _, nd := range nodes {
				for e, err := range kb.Edges(ctx, nd) {
					if err != nil {
						return nil, err
					}
					if e.Rel == rel {
						next = append(next, e.Node)
					}
				}
			}
			nodes = next
		}
		for _, nd := range nodes {
			if !kb.IsLiteral(nd) {
				continue
			}
			t, err := kb.Term(ctx, nd)
			if err != nil {
				return nil, err
			}
			if v := strings.TrimSpace(t.Value); v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// guideStage probes the form with the values of round r's plan.
func (p *pipeline) guideStage(r int) stage {
	return stage{
		name:    fmt.Sprintf("guide-%d", r),
		inputs:  []string{planFile(r)},
		outputs: []string{probe.ProbesFile},
		run: func(ctx context.Context) error {
			var plan guidedPlan
			if err := readJSONFile(filepath.Join(p.o.Dir, planFile(r)), &plan); err != nil {
				return err
			}
			form, err := probe.ReadForm(p.o.Dir)
			if err != nil {
				return err
			}
			pl, err := probe.ExplicitPlan(form, plan.Values)
			if err != nil {
				return err
			}
			pr, err := p.thePlanProber(ctx)
			if err != nil {
				return err
			}
			rec, err := newRoundRecorder(p.o.Dir, fmt.Sprintf("guided-%d", r))
			if err != nil {
				return err
			}
			sum, err := pr.Run(ctx, form, pl, rec)
			if err != nil {
				return err
			}
			p.log.Info("guided probes", "round", r, "probes", sum.Probes, "pages", sum.Pages, "failed", sum.Failed)
			return rec.commit()
		},
	}
}

// roundRecorder records the probes of one guided round: it numbers them after the
// run's earlier probes, writes their pages, and on commit rewrites probes.jsonl as the
// earlier probes (without any of this round's, from an interrupted attempt) followed by
// the new ones, atomically.
type roundRecorder struct {
	dir  string
	kind string
	base int
	keep []probe.Probe

	mu  sync.Mutex
	new []probe.Probe
}

func newRoundRecorder(dir, kind string) (*roundRecorder, error) {
	probes, err := probe.ReadProbes(dir)
	if err != nil {
		return nil, err
	}
	rr := &roundRecorder{dir: dir, kind: kind}
	for _, pr := range probes {
		if pr.Kind == kind {
			continue
		}
		rr.keep = append(rr.keep, pr)
		rr.base = max(rr.base, pr.N)
	}
	return rr, nil
}

// AddProbe implements probe.Recorder.
func (rr *roundRecorder) AddProbe(pr probe.Probe, pages []probe.Page) (probe.Probe, error) {
	pr.N += rr.base
	pr.Kind = rr.kind
	pr.Pages = []probe.PageRef{}
	for k, pg := range pages {
		name := fmt.Sprintf("%s/%04d-%d.html", probe.PagesDir, pr.N, k+1)
		if err := writeFileAtomic(filepath.Join(rr.dir, name), []byte(pg.HTML)); err != nil {
			return pr, err
		}
		pr.Pages = append(pr.Pages, probe.PageRef{File: name, URL: pg.URL, Status: pg.Status, Bytes: len(pg.HTML), Elapsed: pg.Elapsed})
	}
	rr.mu.Lock()
	rr.new = append(rr.new, pr)
	rr.mu.Unlock()
	return pr, nil
}

func (rr *roundRecorder) commit() error {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	all := append(slices.Clone(rr.keep), rr.new...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].N < all[j].N })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, pr := range all {
		if err := enc.Encode(pr); err != nil {
			return err
		}
	}
	return writeFileAtomic(filepath.Join(rr.dir, probe.ProbesFile), buf.Bytes())
}
