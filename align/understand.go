package align

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Form understanding (M. Oita, "Deriving semantic objects from the structured web", PhD
// thesis, Télécom ParisTech 2012, ch. 3 §3.7): the alignment of a source's labeled graph
// (KB1) with the reference KB (KB2) names the class of the records, the meaning of each
// record feature (the KB2 relation or join it is subsumed by) and, for a join, the class
// of the entities its values name (a field "expects author names").

// ErrNoRecordClass means that the record class named in EnrichOptions is not a class of
// KB1, or that no KB1 class could be found to understand.
var ErrNoRecordClass = errors.New("align: no record class")

// The status of a record feature in an Understanding.
const (
	// RelationAligned: the feature is subsumed by a KB2 relation or join with a
	// confidence of at least MinRelationConfidence.
	RelationAligned = "aligned"
	// RelationNew: the feature aligned to nothing but maps to a form field; it becomes
	// a new relation named from the field's label.
	RelationNew = "new"
	// RelationUnaligned: the feature aligned to nothing and maps to no form field; its
	// values are left out of the enrichment.
	RelationUnaligned = "unaligned"
)

// Understanding is what an alignment says about the records of one source. It is plain
// data, written as understanding.json (WriteUnderstanding) for the report.
type Understanding struct {
	// Source is EnrichOptions.Source.
	Source string `json:"source,omitempty"`
	// The thresholds the understanding was made with.
	LinkThreshold         float64 `json:"link_threshold"`
	MinRelationConfidence float64 `json:"min_relation_confidence"`
	MinClassConfidence    float64 `json:"min_class_confidence"`
	// Records is the number of KB1 records (instances of the record classes); Linked
	// how many of them have a KB2 partner with a confidence ≥ LinkThreshold.
	Records int `json:"records"`
	Linked  int `json:"linked"`
	// Classes describes each record class, sorted by IRI.
	Classes []ClassUnderstanding `json:"classes"`
	// Relations describes each record feature (a KB1 relation with a record as
	// subject), sorted by IRI.
	Relations []RelationUnderstanding `json:"relations"`
	// Warnings are conditions a user should know about.
	Warnings []string `json:"warnings,omitempty"`
	// Enrichment counts what Enrich wrote (set by Enrich, nil after Understand).
	Enrichment *EnrichStats `json:"enrichment,omitempty"`
	// Review lists the records Enrich left out for review (EnrichOptions.ReviewThreshold):
	// a KB2 entity of their class may be them, but not surely enough for a link.
	Review []ReviewItem `json:"review,omitempty"`

	recs     []*recordInfo
	relIdx   map[graph.Rel]int
	partners map[graph.ID]InstanceMatch
}

// ReviewItem is a record that may be a KB2 entity.
type ReviewItem struct {
	Record     string  `json:"record"`
	Candidate  string  `json:"candidate"`
	Confidence float64 `json:"confidence"`
}

// ClassUnderstanding is what the alignment says about one record class.
type ClassUnderstanding struct {
	// Class is the KB1 class IRI.
	Class string `json:"class"`
	// Records is its number of instances; Linked how many have a partner ≥ LinkThreshold.
	Records int `json:"records"`
	Linked  int `json:"linked"`
	// Aligned is the KB2 class the records are taken to be: the most specific
	// superclass (the one with the most superclasses) whose Confidence is at least
	// MinClassConfidence: schema:Book rather than schema:CreativeWork when nine in ten
	// linked records are books, even if a few films make CreativeWork score higher. Empty
	// when none qualifies.
	Aligned    string  `json:"aligned,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
	// Superclasses are the KB2 classes d with Class ⊆ d, best first.
	Superclasses []ClassScore `json:"superclasses,omitempty"`
	// Subclasses are the KB2 classes d with d ⊆ Class (PARIS's scores), best first.
	Subclasses []ClassScore `json:"subclasses,omitempty"`

	id        graph.ID
	alignedID graph.ID
}

// ClassScore is a KB2 class related to a record class.
type ClassScore struct {
	// Class is the KB2 class IRI.
	Class string `json:"class"`
	// Confidence of a superclass is PARIS's class subsumption computed over the records
	// the KB knows: (1/|linked|)·Σ Pr(x≡y) over the linked records x whose partner y is an
	// instance of Class, directly or through rdfs:subClassOf. Unlike PARIS's score over
	// all records (Paris), it does not fall when most records are new to the KB, which
	// is the normal case of a deep-web source (thesis: "most books were not in YAGO").
	// For a subclass, Confidence is PARIS's Pr(Class ⊆ record class).
	Confidence float64 `json:"confidence"`
	// Linked is the number of linked records whose partner is in Class, and Share their
	// fraction of the linked records (superclasses): the class of the records is chosen
	// on Share.
	Linked int     `json:"linked,omitempty"`
	Share  float64 `json:"share,omitempty"`
	// Paris is PARIS's Pr(record class ⊆ Class) over all records (Result.Classes), 0
	// when it was below θ (superclasses).
	Paris float64 `json:"paris,omitempty"`
	// N is PARIS's n: the number of instances of the subclass (subclasses).
	N int `json:"n,omitempty"`

	id    graph.ID
	depth int // number of superclasses, transitively, including itself
}

// RelationUnderstanding is what the alignment says about one record feature.
type RelationUnderstanding struct {
	// Relation is the KB1 predicate IRI.
	Relation string `json:"relation"`
	// Label is the feature's label when the feature maps to a form field
	// (EnrichOptions.FeatureLabels); a new relation is named from it.
	Label string `json:"label,omitempty"`
	// Precision is "year" for a feature of dates that differ only in their year (a site
	// that shows "02 Jan, 1880" for a book of 1880): its values are written as
	// xsd:gYear, the precision the values really have.
	Precision string `json:"precision,omitempty"`
	// Status is RelationAligned, RelationNew or RelationUnaligned.
	Status string `json:"status"`
	// Facts is the number of values of the feature on records; Records the number of
	// records with at least one.
	Facts   int `json:"facts"`
	Records int `json:"records"`
	// LinkedRecords is the number of linked records with a value; Matched how many of
	// them have a value that KB2 also has for the partner along Aligned (compared as the
	// aligner compares literals).
	LinkedRecords int `json:"linked_records"`
	Matched       int `json:"matched"`
	// Aligned is the best superrelation, when its confidence is at least
	// MinRelationConfidence.
	Aligned *RelationScore `json:"aligned,omitempty"`
	// ValueClass is, for a join, the KB2 class of the middle entities (the authors of
	// schema:author / rdfs:label): the most specific class that holds at least
	// MinClassConfidence of the middle entities reached by matched values.
	// ValueClassConfidence is that share.
	ValueClass           string  `json:"value_class,omitempty"`
	ValueClassConfidence float64 `json:"value_class_confidence,omitempty"`
	// NewRelation is the IRI of the relation minted from Label (status "new").
	NewRelation string `json:"new_relation,omitempty"`
	// LabelMatches are KB2 relations whose local name is the name minted from the
	// feature's label (schema:publisher for "Publisher"): hints for a knowledge engineer,
	// never used as evidence (deepweb.md §9).
	LabelMatches []string `json:"label_matches,omitempty"`
	// Super are the KB2 relations and joins r' with Relation ⊆ r', best first; Sub
	// those with r' ⊆ Relation. Both come from Result.Relations (≥ θ).
	Super []RelationScore `json:"super,omitempty"`
	Sub   []RelationScore `json:"sub,omitempty"`

	rel          graph.Rel
	valueClassID graph.ID
}

// RelationScore is a KB2 relation or join related to a record feature.
type RelationScore struct {
	// Relation is the KB2 path in alignment.tsv notation (PathName): relation IRIs
	// joined by " / ", an inverse step with a trailing "-".
	Relation string `json:"relation"`
	// Join is true for a path of more than one step.
	Join bool `json:"join,omitempty"`
	// Confidence and N are the relation subsumption score and the n behind it.
	Confidence float64 `json:"confidence"`
	N          float64 `json:"n"`

	path Path
}

// recordInfo is one KB1 record and its feature values.
type recordInfo struct {
	id     graph.ID
	term   graph.Term
	class  int // index into Understanding.Classes
	values []relValues
}

type relValues struct {
	rel  graph.Rel
	vals []graph.Term
}

// understander holds the caches of one Understand or Enrich call.
type understander struct {
	kb1, kb2 KB
	res      *Result
	opts     EnrichOptions
	log      *slog.Logger
	cc2      *classCache
	follows  map[followKey][]graph.ID
	terms2   map[graph.ID]graph.Term
}

// linked reports whether KB1 entity x has a partner that is an owl:sameAs link
// (InstanceMatch.Linked with the enrichment's LinkThreshold).
func (s *understander) linked(partners map[graph.ID]InstanceMatch, x graph.ID) bool {
	m, ok := partners[x]
	if !ok {
		return false
	}
	o := s.res.Options
	o.LinkThreshold = s.opts.LinkThreshold
	return m.Linked(o)
}

type followKey struct {
	n graph.ID
	r graph.Rel
}

func newUnderstander(kb1, kb2 KB, res *Result, opts EnrichOptions) *understander {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &understander{kb1: kb1, kb2: kb2, res: res, opts: opts, log: log, cc2: newClassCache(kb2),
		follows: map[followKey][]graph.ID{}, terms2: map[graph.ID]graph.Term{}}
}

// Understand names the record classes and record features of KB1 with the KB2 classes,
// relations and joins they align to (both directions), counts per feature how many
// linked records' values KB2 also has, and names each unaligned feature that maps to a
// form field with a new relation (see EnrichOptions and Enrich). res is the result of
// Align(ctx, kb1, kb2, …).
func Understand(ctx context.Context, kb1, kb2 KB, res *Result, opts EnrichOptions) (*Understanding, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("align: Understand needs an alignment result")
	}
	s := newUnderstander(kb1, kb2, res, opts)
	return s.understand(ctx)
}

func (s *understander) understand(ctx context.Context) (*Understanding, error) {
	o := s.opts
	u := &Understanding{
		Source:                o.Source,
		LinkThreshold:         o.LinkThreshold,
		MinRelationConfidence: o.MinRelationConfidence,
		MinClassConfidence:    o.MinClassConfidence,
		relIdx:                map[graph.Rel]int{},
		partners:              map[graph.ID]InstanceMatch{},
	}
	for _, m := range s.res.Instances {
		u.partners[m.Left] = m
	}
	classes, err := s.recordClasses(ctx)
	if err != nil {
		return nil, err
	}
	if len(classes) == 0 {
		u.Warnings = append(u.Warnings, "no KB1 class is related to KB2 (no record has a partner); set the record class to understand the features")
	}
	seen := map[graph.ID]bool{}
	for ci, c := range classes {
		cu := ClassUnderstanding{id: c}
		t, err := s.kb1.Term(ctx, c)
		if err != nil {
			return nil, err
		}
		cu.Class = termText(t)
		var members []graph.ID
		for id, err := range s.kb1.Instances(ctx, c) {
			if err != nil {
				return nil, err
			}
			members = append(members, id)
			cu.Records++
			if s.linked(u.partners, id) {
				cu.Linked++
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			rec, err := s.readRecord(ctx, id, ci)
			if err != nil {
				return nil, err
			}
			u.recs = append(u.recs, rec)
		}
		if err := s.classScores(ctx, &cu, members, u.partners); err != nil {
			return nil, err
		}
		u.Classes = append(u.Classes, cu)
	}
	u.Records = len(u.recs)
	for _, r := range u.recs {
		if s.linked(u.partners, r.id) {
			u.Linked++
		}
	}
	if err := s.relations(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// recordClasses returns the KB1 classes to understand, sorted by IRI.
func (s *understander) recordClasses(ctx context.Context) ([]graph.ID, error) {
	if s.opts.RecordClass != "" {
		id, ok, err := s.kb1.Lookup(ctx, graph.NewIRI(s.opts.RecordClass))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: %s is not a term of KB1", ErrNoRecordClass, s.opts.RecordClass)
		}
		return []graph.ID{id}, nil
	}
	set := map[graph.ID]bool{}
	for _, m := range s.res.Classes {
		set[m.Left] = true
	}
	for _, m := range s.res.Instances {
		ts, err := s.kb1.Types(ctx, m.Left)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			set[t] = true
		}
	}
	type named struct {
		id   graph.ID
		name string
	}
	var out []named
	for id := range set {
		t, err := s.kb1.Term(ctx, id)
		if err != nil {
			return nil, err
		}
		if t.IsIRI() && strings.HasPrefix(t.Value, graph.OWL) {
			continue
		}
		out = append(out, named{id, t.String()})
	}
	slices.SortFunc(out, func(a, b named) int { return cmp.Compare(a.name, b.name) })
	ids := make([]graph.ID, len(out))
	for i, n := range out {
		ids[i] = n.id
	}
	return ids, nil
}

// readRecord reads the feature values of one record: its outgoing facts.
func (s *understander) readRecord(ctx context.Context, id graph.ID, class int) (*recordInfo, error) {
	t, err := s.kb1.Term(ctx, id)
	if err != nil {
		return nil, err
	}
	rec := &recordInfo{id: id, term: t, class: class}
	byRel := map[graph.Rel][]graph.Term{}
	for e, err := range s.kb1.Edges(ctx, id) {
		if err != nil {
			return nil, err
		}
		if e.Rel.IsInverse() {
			continue
		}
		v, err := s.kb1.Term(ctx, e.Node)
		if err != nil {
			return nil, err
		}
		byRel[e.Rel] = append(byRel[e.Rel], v)
	}
	for r, vs := range byRel {
		slices.SortFunc(vs, func(a, b graph.Term) int { return cmp.Compare(a.String(), b.String()) })
		rec.values = append(rec.values, relValues{rel: r, vals: slices.Compact(vs)})
	}
	slices.SortFunc(rec.values, func(a, b relValues) int { return cmp.Compare(a.rel, b.rel) })
	return rec, nil
}

// classScores fills the superclasses (over the linked members) and subclasses of a
// record class, and picks the aligned class.
func (s *understander) classScores(ctx context.Context, cu *ClassUnderstanding, members []graph.ID, partners map[graph.ID]InstanceMatch) error {
	acc := map[graph.ID]float64{}
	cnt := map[graph.ID]int{}
	linked := 0
	for _, x := range members {
		m := partners[x]
		if !s.linked(partners, x) {
			continue
		}
		linked++
		closed, err := s.typeClosure(ctx, m.Right)
		if err != nil {
			return err
		}
		for _, d := range closed {
			acc[d] += m.Confidence
			cnt[d]++
		}
	}
	paris := map[graph.ID]float64{}
	for _, m := range s.res.Classes {
		if m.Left != cu.id {
			continue
		}
		if m.SubKB == 1 {
			paris[m.Right] = m.Confidence
		} else {
			cu.Subclasses = append(cu.Subclasses, ClassScore{Class: termText(m.RightTerm), Confidence: m.Confidence, N: m.N, id: m.Right})
		}
	}
	supers := map[graph.ID]*ClassScore{}
	get := func(d graph.ID) (*ClassScore, error) {
		if cs, ok := supers[d]; ok {
			return cs, nil
		}
		t, err := s.term2(ctx, d)
		if err != nil {
			return nil, err
		}
		depth, err := s.depth(ctx, d)
		if err != nil {
			return nil, err
		}
		cs := &ClassScore{Class: termText(t), id: d, depth: depth}
		supers[d] = cs
		return cs, nil
	}
	for d, a := range acc {
		cs, err := get(d)
		if err != nil {
			return err
		}
		cs.Confidence = a / float64(linked)
		cs.Linked = cnt[d]
		cs.Share = float64(cnt[d]) / float64(linked)
	}
	for d, p := range paris {
		cs, err := get(d)
		if err != nil {
			return err
		}
		cs.Paris = p
	}
	for _, cs := range supers {
		cu.Superclasses = append(cu.Superclasses, *cs)
	}
	sortClassScores(cu.Superclasses)
	slices.SortFunc(cu.Subclasses, func(a, b ClassScore) int {
		return cmp.Or(cmp.Compare(b.Confidence, a.Confidence), cmp.Compare(a.Class, b.Class))
	})
	if best, ok := mostSpecific(cu.Superclasses, s.opts.MinClassConfidence, func(c ClassScore) float64 { return c.Share }); ok {
		cu.Aligned, cu.Confidence, cu.alignedID = best.Class, best.Confidence, best.id
	}
	return nil
}

// mostSpecific returns the class of cs with the most superclasses among those whose
// share is at least floor; among equals the one with the higher confidence, then the
// first in cs (sorted by sortClassScores).
func mostSpecific(cs []ClassScore, floor float64, share func(ClassScore) float64) (ClassScore, bool) {
	best, ok := ClassScore{}, false
	for _, c := range cs {
		if share(c) < floor {
			continue
		}
		if !ok || c.depth > best.depth || (c.depth == best.depth && c.Confidence > best.Confidence+1e-9) {
			best, ok = c, true
		}
	}
	return best, ok
}

// sortClassScores sorts by decreasing confidence, then the most specific first (more
// superclasses), then by IRI. Confidences closer than 1e-9 are equal.
func sortClassScores(cs []ClassScore) {
	slices.SortFunc(cs, func(a, b ClassScore) int {
		if d := b.Confidence - a.Confidence; d > 1e-9 || d < -1e-9 {
			return cmp.Compare(b.Confidence, a.Confidence)
		}
		return cmp.Or(cmp.Compare(b.depth, a.depth), cmp.Compare(b.Paris, a.Paris), cmp.Compare(a.Class, b.Class))
	})
}

// typeClosure returns the KB2 classes of n, with their superclasses.
func (s *understander) typeClosure(ctx context.Context, n graph.ID) ([]graph.ID, error) {
	direct, err := s.cc2.types(ctx, n)
	if err != nil {
		return nil, err
	}
	return s.cc2.closure(ctx, direct)
}

// depth returns the number of classes in the superclass closure of d, itself included.
func (s *understander) depth(ctx context.Context, d graph.ID) (int, error) {
	c, err := s.cc2.closure(ctx, []graph.ID{d})
	return len(c), err
}

func (s *understander) term2(ctx context.Context, n graph.ID) (graph.Term, error) {
	if t, ok := s.terms2[n]; ok {
		return t, nil
	}
	t, err := s.kb2.Term(ctx, n)
	if err != nil {
		return graph.Term{}, err
	}
	s.terms2[n] = t
	return t, nil
}

// follow returns the KB2 nodes reached from n by one step r. Of a hub (a node with
// more than the aligner's MaxDegree edges, such as a country) only the first MaxDegree
// edges are read, as the aligner skips hubs altogether.
func (s *understander) follow(ctx context.Context, n graph.ID, r graph.Rel) ([]graph.ID, error) {
	k := followKey{n, r}
	if ns, ok := s.follows[k]; ok {
		return ns, nil
	}
	var out []graph.ID
	read := 0
	for e, err := range s.kb2.Edges(ctx, n) {
		if err != nil {
			return nil, err
		}
		if read++; read > s.res.Options.MaxDegree {
			s.log.Debug("hub: edges not all read", "node", n, "max_degree", s.res.Options.MaxDegree)
			break
		}
		if e.Rel == r {
			out = append(out, e.Node)
		}
	}
	s.follows[k] = out
	return out, nil
}

// hop is one way along a KB2 path: the node after the first step and the end node.
type hop struct{ first, end graph.ID }

// maxHops bounds the ends collected along one path from one node.
const maxHops = 100000

// walk returns the ways along p from n.
func (s *understander) walk(ctx context.Context, n graph.ID, p Path) ([]hop, error) {
	firsts, err := s.follow(ctx, n, p.Step(0))
	if err != nil {
		return nil, err
	}
	var out []hop
	for _, f := range firsts {
		ends := []graph.ID{f}
		for i := 1; i < p.Len(); i++ {
			var next []graph.ID
			for _, x := range ends {
				ys, err := s.follow(ctx, x, p.Step(i))
				if err != nil {
					return nil, err
				}
				next = append(next, ys...)
				if len(next) > maxHops {
					break
				}
			}
			ends = next
		}
		for _, e := range ends {
			out = append(out, hop{f, e})
		}
		if len(out) > maxHops {
			break
		}
	}
	return out, nil
}

// matches reports whether the KB1 value v equals the KB2 node n as the aligner sees it.
func (s *understander) matches(ctx context.Context, v graph.Term, n graph.ID) (bool, error) {
	t, err := s.term2(ctx, n)
	if err != nil {
		return false, err
	}
	if v.IsLiteral() && t.IsLiteral() {
		return literalsMatch(v, t, s.res.Options), nil
	}
	return v == t, nil
}

// literalsMatch compares two literals as the aligner's literal matching does: the same
// lexical form; in the normalized and approximate modes, the same textnorm.Literal
// normal form or dates that include one another; in the approximate mode, string
// literals with a k-gram Dice coefficient of at least ApproxMinDice.
func literalsMatch(a, b graph.Term, o Options) bool {
	if a.Value == b.Value {
		return true
	}
	if o.Literals == LiteralExact {
		return false
	}
	if da, ok := graph.ParseDate(a.Value); ok {
		if db, ok := graph.ParseDate(b.Value); ok {
			return da.Overlaps(db)
		}
	}
	na, nb := textnorm.Literal(a.Value), textnorm.Literal(b.Value)
	if na == "" || nb == "" {
		return false
	}
	if na == nb {
		return true
	}
	return o.Literals == LiteralApprox && graph.IsStringLiteral(a) && graph.IsStringLiteral(b) &&
		textnorm.Dice(na, nb, o.ApproxK) >= o.ApproxMinDice
}

// relations fills Understanding.Relations.
func (s *understander) relations(ctx context.Context, u *Understanding) error {
	o := s.opts
	type relStats struct{ facts, records, linked int }
	stats := map[graph.Rel]*relStats{}
	for _, r := range u.recs {
		for _, rv := range r.values {
			st := stats[rv.rel]
			if st == nil {
				st = &relStats{}
				stats[rv.rel] = st
			}
			st.facts += len(rv.vals)
			st.records++
			if s.linked(u.partners, r.id) {
				st.linked++
			}
		}
	}
	rels := make([]graph.Rel, 0, len(stats))
	for r := range stats {
		rels = append(rels, r)
	}
	slices.SortFunc(rels, func(a, b graph.Rel) int { return cmp.Compare(s.kb1.RelationIRI(a), s.kb1.RelationIRI(b)) })
	byLocal := s.kb2LocalNames()
	usedNames := map[string]bool{}
	for _, r := range rels {
		st := stats[r]
		ru := RelationUnderstanding{Relation: s.kb1.RelationIRI(r), rel: r, Facts: st.facts, Records: st.records, LinkedRecords: st.linked}
		ru.Label = strings.TrimSpace(o.FeatureLabels[ru.Relation])
		if yearOnly(u.recs, r) {
			ru.Precision = "year"
		}
		p := NewPath(r)
		for _, m := range s.res.Relations {
			if m.Left != p {
				continue
			}
			sc := RelationScore{Relation: m.RightName, Join: m.Right.IsJoin(), Confidence: m.Confidence, N: m.N, path: m.Right}
			if m.SubKB == 1 {
				ru.Super = append(ru.Super, sc)
			} else {
				ru.Sub = append(ru.Sub, sc)
			}
		}
		for _, l := range [][]RelationScore{ru.Super, ru.Sub} {
			slices.SortFunc(l, func(a, b RelationScore) int {
				return cmp.Or(cmp.Compare(b.Confidence, a.Confidence), cmp.Compare(a.Relation, b.Relation))
			})
		}
		name := RelationName(ru.Label)
		if name != "" {
			ru.LabelMatches = byLocal[strings.ToLower(name)]
		}
		switch {
		case len(ru.Super) > 0 && ru.Super[0].Confidence >= o.MinRelationConfidence:
			best := ru.Super[0]
			ru.Aligned = &best
			ru.Status = RelationAligned
			if best.path.Len() > 2 {
				u.Warnings = append(u.Warnings, fmt.Sprintf("feature %s aligns to a join of %d steps (%s): its values are not written to the enrichment", ru.Relation, best.path.Len(), best.Relation))
			}
			if err := s.matchValues(ctx, u, &ru); err != nil {
				return err
			}
		case name != "":
			n := name
			for k := 2; usedNames[n]; k++ {
				n = fmt.Sprintf("%s%d", name, k)
			}
			usedNames[n] = true
			ru.NewRelation = o.relationNS() + n
			ru.Status = RelationNew
		default:
			ru.Status = RelationUnaligned
			if ru.Label != "" {
				u.Warnings = append(u.Warnings, fmt.Sprintf("feature %s: label %q has no letters or digits to name a relation", ru.Relation, ru.Label))
			}
		}
		u.relIdx[r] = len(u.Relations)
		u.Relations = append(u.Relations, ru)
	}
	return nil
}

// yearOnly reports whether the values of rel on the records are dates (xsd:date) of at
// least two years that all fall on the same month and day: a site that shows a year as
// a date ("02 Jan, 1880"), whose days carry nothing.
func yearOnly(recs []*recordInfo, rel graph.Rel) bool {
	md, years := "", map[string]bool{}
	for _, r := range recs {
		for _, v := range valuesOf(r, rel) {
			if !v.IsLiteral() || v.Datatype != graph.XSDDate {
				return false
			}
			d, ok := graph.ParseDate(v.Value)
			if !ok {
				return false
			}
			x := d.String()
			if md == "" {
				md = x[len(x)-5:]
			} else if x[len(x)-5:] != md {
				return false
			}
			years[x[:len(x)-6]] = true
		}
	}
	return len(years) >= 2
}

// kb2LocalNames maps the lower-cased local name of each KB2 relation (after the last
// '/' or '#') to the relation IRIs.
func (s *understander) kb2LocalNames() map[string][]string {
	out := map[string][]string{}
	for _, r := range s.kb2.Relations() {
		iri := s.kb2.RelationIRI(r)
		local := graph.LocalName(iri)
		if local != "" {
			k := strings.ToLower(local)
			out[k] = append(out[k], iri)
		}
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// matchValues counts the linked records whose values KB2 has along the aligned path,
// and finds the class of the middle entities of a join.
func (s *understander) matchValues(ctx context.Context, u *Understanding, ru *RelationUnderstanding) error {
	p := ru.Aligned.path
	middles := map[graph.ID]bool{}
	for _, r := range u.recs {
		m := u.partners[r.id]
		if !s.linked(u.partners, r.id) {
			continue
		}
		vals := valuesOf(r, ru.rel)
		if len(vals) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		hops, err := s.walk(ctx, m.Right, p)
		if err != nil {
			return err
		}
		matched := false
		for _, v := range vals {
			for _, h := range hops {
				ok, err := s.matches(ctx, v, h.end)
				if err != nil {
					return err
				}
				if ok {
					matched = true
					if p.Len() == 2 {
						middles[h.first] = true
					}
				}
			}
		}
		if matched {
			ru.Matched++
		}
	}
	if len(middles) == 0 {
		return nil
	}
	acc := map[graph.ID]int{}
	for mid := range middles {
		closed, err := s.typeClosure(ctx, mid)
		if err != nil {
			return err
		}
		for _, d := range closed {
			acc[d]++
		}
	}
	var cs []ClassScore
	for d, n := range acc {
		t, err := s.term2(ctx, d)
		if err != nil {
			return err
		}
		depth, err := s.depth(ctx, d)
		if err != nil {
			return err
		}
		cs = append(cs, ClassScore{Class: termText(t), Confidence: float64(n) / float64(len(middles)), id: d, depth: depth})
	}
	sortClassScores(cs)
	if best, ok := mostSpecific(cs, s.opts.MinClassConfidence, func(c ClassScore) float64 { return c.Confidence }); ok {
		ru.ValueClass, ru.ValueClassConfidence, ru.valueClassID = best.Class, best.Confidence, best.id
	}
	return nil
}

func valuesOf(r *recordInfo, rel graph.Rel) []graph.Term {
	for _, rv := range r.values {
		if rv.rel == rel {
			return rv.vals
		}
	}
	return nil
}

// RelationName returns the local name of a relation minted from a form field label:
// the label's words (textnorm.Tokens: folded to lower case, accents removed, split at
// anything that is not a letter or digit) in lowerCamelCase, the naming convention of
// schema.org and thus of YAGO 4.5 ("Publisher" → "publisher", "Date of publication" →
// "dateOfPublication", "ISBN-13" → "isbn13"). It returns "" when the label has no letter
// or digit. The thesis's example, "amazon:isPublishedBy", is a verb phrase that needs
// morphology (publisher → published) trawl does not have for arbitrary languages; the
// label is kept verbatim as the relation's rdfs:label.
func RelationName(label string) string {
	var b strings.Builder
	for i, w := range textnorm.Tokens(label) {
		if i > 0 {
			r, size := utf8.DecodeRuneInString(w)
			b.WriteRune(unicode.ToUpper(r))
			w = w[size:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// WriteUnderstanding writes u as indented JSON (understanding.json).
func WriteUnderstanding(w io.Writer, u *Understanding) error {
	b, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
