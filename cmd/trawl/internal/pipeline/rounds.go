package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
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
// run, each guided probe is appended to probes.jsonl as it ends, a resumed round keeps
// the probes of its plan that an interrupted attempt finished and makes only the rest,
// and the state of the rounds is in .trawl/rounds.json, so a run killed at any moment
// resumes with the same plan and keeps what it did.

// roundState is .trawl/rounds.json.
type roundState struct {
	// Completed is the last completed guided round (0: only the agnostic round).
	Completed int `json:"completed"`
	// History has one summary per completed round, the agnostic round first.
	History []RoundSummary `json:"history"`
	// Stopped says why no further round runs, once decided.
	Stopped string `json:"stopped,omitempty"`
}

// RoundSummary measures the alignment after one round.
type RoundSummary struct {
	Round   int `json:"round"`
	Probes  int `json:"probes"`
	Records int `json:"records"`
	// Links is the number of records linked to KB entities (sameAs ≥ threshold).
	Links int `json:"links"`
	// Relations is the number of record features aligned to a KB relation or join;
	// Confidence their mean confidence.
	Relations  int     `json:"relations"`
	Confidence float64 `json:"confidence"`
	// Tentative is the mean confidence of the best alignment (≥ θ, under the floor) of
	// the features not understood: a round that raises it gathered facts a next round
	// can build on, though nothing is understood yet.
	Tentative float64 `json:"tentative,omitempty"`
	// Plan is what the round probed: field → KB values (nil for the agnostic round).
	Plan map[string][]string `json:"plan,omitempty"`
}

// improves reports whether this round's alignment is better than prev's: more aligned
// relations, more links, or a higher mean relation confidence.
func (s RoundSummary) improves(prev RoundSummary) bool {
	return s.Relations > prev.Relations || s.Links > prev.Links || s.Confidence > prev.Confidence+0.005 ||
		(s.Relations == 0 && s.Tentative > prev.Tentative+0.005)
}

// NeedsBrowser reports whether the run in dir has stages left that drive the browser;
// a finished run is re-checked without starting Chromium.
func NeedsBrowser(dir string, noReport bool) bool {
	st, err := readRoundState(dir)
	if err != nil || st.Stopped == "" {
		return true
	}
	_, err = os.Stat(filepath.Join(dir, rundir.ReportFile))
	return !noReport && errors.Is(err, fs.ErrNotExist)
}

func readRoundState(dir string) (roundState, error) {
	var st roundState
	err := rundir.ReadJSON(filepath.Join(dir, rundir.RoundsFile), &st)
	if errors.Is(err, fs.ErrNotExist) {
		return roundState{}, nil
	}
	return st, err
}

func writeRoundState(dir string, st roundState) error {
	return rundir.WriteJSON(filepath.Join(dir, rundir.RoundsFile), st)
}

// measureRound measures the outcome of round r.
func (p *Pipeline) measureRound(r int, plan *guidedPlan) (RoundSummary, error) {
	sum := RoundSummary{Round: r}
	if plan != nil {
		sum.Plan = plan.Values
	}
	probes, err := p.st.Probes()
	if err != nil {
		return sum, err
	}
	sum.Probes = len(probes)
	u, err := p.st.Understanding()
	if err != nil {
		return sum, err
	}
	// The records of the round are those of records.jsonl: the count the summary, the
	// batch table and the report all show.
	recs, err := p.st.Records()
	if err != nil {
		return sum, err
	}
	sum.Records, sum.Links = len(recs), u.Linked
	total, tentative, nt := 0.0, 0.0, 0
	for _, rel := range u.Relations {
		switch {
		case rel.Aligned != nil:
			sum.Relations++
			total += rel.Aligned.Confidence
		case len(rel.Super) > 0:
			nt++
			tentative += rel.Super[0].Confidence
		}
	}
	if sum.Relations > 0 {
		sum.Confidence = total / float64(sum.Relations)
	}
	if nt > 0 {
		sum.Tentative = tentative / float64(nt)
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

// guidedPlan returns the plan of round r: the saved one if the round already started,
// otherwise a new one made from the current alignment, then saved.
func (p *Pipeline) guidedPlan(ctx context.Context, r int) (*guidedPlan, error) {
	path := filepath.Join(p.o.Dir, rundir.PlanFile(r))
	var saved guidedPlan
	if err := rundir.ReadJSON(path, &saved); err == nil {
		return &saved, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	plan, err := p.makeGuidedPlan(ctx, r)
	if err != nil {
		return nil, err
	}
	return plan, rundir.WriteJSON(path, plan)
}

// planInput is what a guided plan is made from.
type planInput struct {
	kb     align.KB
	form   probe.Form
	ns     graph.Namespace
	schema *schema.Schema
	under  *align.Understanding
	result *align.Result
	recs   []records.Record
}

// planInput gathers the inputs of a guided plan, in memory when the stages before ran
// in this process. The alignment is not kept in any file the plan could use as is: when
// no align stage ran in this process (a run resumed right after one), it is computed
// again, which gives the same files.
func (p *Pipeline) planInput(ctx context.Context) (*planInput, error) {
	in := &planInput{}
	var err error
	if in.kb, err = p.reference(ctx); err != nil {
		return nil, err
	}
	if in.form, err = p.st.Form(); err != nil {
		return nil, err
	}
	l, err := p.labeled(ctx)
	if err != nil {
		return nil, err
	}
	in.ns = l.NS
	if in.schema, err = p.st.Schema(); err != nil {
		return nil, err
	}
	if in.recs, err = p.st.Records(); err != nil {
		return nil, err
	}
	a := p.st.alignment
	if a == nil {
		p.log.Info("the alignment is not in memory: aligning again to plan the guided round")
		if a, err = p.align(ctx); err != nil {
			return nil, err
		}
	}
	in.result, in.under = a.Result, a.Enrichment.Understanding
	return in, nil
}

// makeGuidedPlan chooses, for every text field mapped to a feature that aligned to a
// KB relation or join, values of that relation on instances of the aligned KB class
// that the source has not shown yet.
func (p *Pipeline) makeGuidedPlan(ctx context.Context, r int) (*guidedPlan, error) {
	plan := &guidedPlan{Round: r, Values: map[string][]string{}, Paths: map[string]string{}}
	in, err := p.planInput(ctx)
	if err != nil {
		return nil, err
	}
	class, err := recordClass(ctx, in)
	if err != nil {
		return nil, err
	}
	if class == "" {
		plan.Reason = fmt.Sprintf("the records' class aligned to no KB class (%d of %d records linked), so the KB cannot say which values to try",
			in.under.Linked, in.under.Records)
		return plan, nil
	}
	tried, err := p.triedValues(r)
	if err != nil {
		return nil, err
	}
	linked := linkedEntities(in.result, in.result.Options.LinkThreshold)
	known := knownValues(in.schema, in.recs)
	cands := p.planCandidates(in)
	var empty []string
	for _, c := range cands {
		if _, done := plan.Values[c.field.Name]; done {
			continue
		}
		vals, err := kbValues(ctx, in.kb, class, c.path, 40*p.o.GuidedValues, linked)
		if err != nil {
			return nil, err
		}
		if pick := p.pickValues(c, vals, known, tried); len(pick) > 0 {
			plan.Values[c.field.Name] = pick
			plan.Paths[c.field.Name] = class + " → " + c.relation
		} else {
			empty = append(empty, fmt.Sprintf("%s (%d values of %s along %s, none new)", c.field.Name, len(vals), class, c.relation))
		}
	}
	switch {
	case len(plan.Values) > 0:
	case len(cands) == 0:
		plan.Reason = "no text field maps to a record feature understood as a KB relation (" + p.planGap(in) + ")"
	default:
		plan.Reason = "the KB has no value left to try in " + strings.Join(empty, "; ")
	}
	return plan, nil
}

// planGap says why no field is a plan candidate: the text fields mapped by containment
// and the features understood as KB relations (confidence ≥ the floor).
func (p *Pipeline) planGap(in *planInput) string {
	var mapped, understood []string
	fields := map[string]probe.Field{}
	for _, f := range in.form.Fields {
		fields[f.Name] = f
	}
	for _, m := range in.schema.Mapping {
		if fd, ok := fields[m.Field]; ok && fd.IsText() && fd.Type != "number" && m.Relation == schema.RelContains {
			mapped = append(mapped, m.Field+" → "+m.Feature)
		}
	}
	for _, r := range in.under.Relations {
		if r.Aligned != nil {
			understood = append(understood, shortIRI(r.Relation))
		}
	}
	slices.Sort(mapped)
	slices.Sort(understood)
	none := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	return fmt.Sprintf("text fields mapped: %s; features understood (confidence ≥ %.2f): %s",
		none(mapped), in.under.MinRelationConfidence, none(understood))
}

// recordClass is the KB class the records aligned to, or the class most of their
// likely partners have.
func recordClass(ctx context.Context, in *planInput) (string, error) {
	class := ""
	for _, c := range in.under.Classes {
		if c.Aligned != "" {
			class = c.Aligned
		}
	}
	if class != "" {
		return class, nil
	}
	// PARIS's damping keeps instance confidences below the link threshold while few
	// facts support the relations (a small first sample): take the class most of the
	// likely partners have, so that guided probing can gather the facts it lacks.
	return classOfPartners(ctx, in.kb, in.result, 0.5)
}

// planCandidate is a text field mapped (by containment) to a feature aligned with a KB
// relation or join.
type planCandidate struct {
	field    probe.Field
	feature  string
	relation string
	path     align.Path
}

// planCandidates lists the fields a guided round can type KB values into, by field name:
// those mapped to features understood as a KB relation (confidence ≥ the floor) or, when
// there is none, to features whose best alignment is still tentative (≥ θ, under the
// floor). PARIS's damping keeps a relation under the floor while few facts support it
// (a small KB, a first sample with few records it has); typing the values of its best
// tentative relation gathers those facts. Tentative relations only choose what to
// probe: they neither enrich the KB nor count as understood.
func (p *Pipeline) planCandidates(in *planInput) []planCandidate {
	aligned, tentative := map[string]*align.RelationScore{}, map[string]*align.RelationScore{}
	for i := range in.under.Relations {
		ru := &in.under.Relations[i]
		switch {
		case ru.Aligned != nil:
			aligned[ru.Relation] = ru.Aligned
		case len(ru.Super) > 0:
			tentative[ru.Relation] = &ru.Super[0]
		}
	}
	if out := p.planFrom(in, aligned); len(out) > 0 {
		return out
	}
	return p.planFrom(in, tentative)
}

// planFrom lists the text fields mapped by containment to a feature of aligned.
func (p *Pipeline) planFrom(in *planInput, aligned map[string]*align.RelationScore) []planCandidate {
	fields := map[string]probe.Field{}
	for _, f := range in.form.Fields {
		fields[f.Name] = f
	}
	mappings := slices.Clone(in.schema.Mapping)
	sort.SliceStable(mappings, func(i, j int) bool { return mappings[i].Field < mappings[j].Field })
	var out []planCandidate
	for _, m := range mappings {
		fd, ok := fields[m.Field]
		if !ok || !fd.IsText() || fd.Type == "number" || m.Relation != schema.RelContains {
			continue
		}
		a := aligned[in.ns.Predicate(m.Feature).Value]
		if a == nil {
			continue
		}
		path, ok := align.ParsePathName(in.kb, a.Relation)
		if !ok {
			continue
		}
		out = append(out, planCandidate{field: fd, feature: m.Feature, relation: a.Relation, path: path})
	}
	return out
}

// pickValues takes up to GuidedValues of vals that fit the field and were not tried.
func (p *Pipeline) pickValues(c planCandidate, vals []string, known map[string]map[string]bool, tried map[string]bool) []string {
	var pick []string
	for _, v := range vals {
		key := textnorm.Literal(v)
		// A value that names one record (a title) is worth typing only if the source
		// has not shown it; a value shared by records (an author, through a join) may
		// list records not seen yet even when it has been shown.
		shown := known[c.feature][key] && !c.path.IsJoin()
		if key == "" || shown || tried[c.field.Name+"\x00"+key] || probe.CheckValue(c.field, v) != nil {
			continue
		}
		tried[c.field.Name+"\x00"+key] = true
		pick = append(pick, v)
		if len(pick) == p.o.GuidedValues {
			break
		}
	}
	return pick
}

// triedValues returns the field-value pairs already typed by any probe or planned by
// an earlier round, which round r does not try again.
func (p *Pipeline) triedValues(r int) (map[string]bool, error) {
	tried := map[string]bool{}
	probes, err := p.st.Probes()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, pr := range probes {
		for f, v := range pr.Assignment {
			tried[f+"\x00"+textnorm.Literal(v)] = true
		}
	}
	for q := 1; q < r; q++ {
		var prev guidedPlan
		if err := rundir.ReadJSON(filepath.Join(p.o.Dir, rundir.PlanFile(q)), &prev); err == nil {
			for f, vs := range prev.Values {
				for _, v := range vs {
					tried[f+"\x00"+textnorm.Literal(v)] = true
				}
			}
		}
	}
	return tried, nil
}

// knownValues returns, per feature name, the normal forms of the values the records
// already show.
func knownValues(s *schema.Schema, recs []records.Record) map[string]map[string]bool {
	out := map[string]map[string]bool{}
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
