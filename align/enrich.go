package align

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Ontology enrichment (Oita 2012, ch. 3 §3.7: "three main possibilities to enrich the
// ontology": the instances that did not align, the facts missing in the KB, and the
// relation types that did not align, kept only when they map to a form field and named
// from its label). Facts carry a confidence and their provenance, as the thesis
// suggests ("facts themselves can be annotated with a probability"), written as RDF 1.2
// reifiers (or classic reification).

// Vocabulary of the enrichment.
const (
	rdfReifies          = graph.RDF + "reifies"
	rdfStatement        = graph.RDF + "Statement"
	rdfSubject          = graph.RDF + "subject"
	rdfPredicate        = graph.RDF + "predicate"
	rdfObject           = graph.RDF + "object"
	rdfProperty         = graph.RDF + "Property"
	xsdDecimal          = graph.XSD + "decimal"
	provWasDerivedFrom  = "http://www.w3.org/ns/prov#wasDerivedFrom"
	schemaDomainInclude = "http://schema.org/domainIncludes"
)

// The files of an enrichment in a run directory.
const (
	FileEnrichment    = "enrichment.nt"
	FileUnderstanding = "understanding.json"
)

// FactKind tells why a fact is in an enrichment.
type FactKind string

// The kinds of enrichment facts.
const (
	// FactType types a new instance with the aligned class of its record class.
	FactType FactKind = "type"
	// FactValue is a value under a KB2 relation (title ⊆ rdfs:label).
	FactValue FactKind = "value"
	// FactJoin links an instance to the middle entity of a join (a book to its author
	// under schema:author), an existing KB2 entity or a minted one.
	FactJoin FactKind = "join"
	// FactEntityLabel names a minted middle entity (the author's rdfs:label).
	FactEntityLabel FactKind = "entity-label"
	// FactEntityType types a minted middle entity with the join's value class.
	FactEntityType FactKind = "entity-type"
	// FactNewRelation is a value under a relation minted from a form field label.
	FactNewRelation FactKind = "new-relation"
)

// Fact is one triple of an enrichment with its confidence and origin.
type Fact struct {
	Triple graph.Triple
	// Confidence is in (0, 1]: the relation alignment's confidence (the class
	// alignment's for a type), times the instance confidence when the subject is a KB2
	// entity the record is linked to (see the decision record on enrichment).
	Confidence float64
	// Record is the KB1 record the fact comes from (prov:wasDerivedFrom).
	Record graph.Term
	// Kind tells why the fact is there; Known is true when its subject (or the
	// instance it is about) is an entity the KB already has.
	Kind  FactKind
	Known bool
}

// EnrichStats counts what Enrich did.
type EnrichStats struct {
	// Records, Linked and NewInstances count KB1 records, those linked to KB2 (≥
	// LinkThreshold) and those written as new instances.
	Records      int `json:"records"`
	Linked       int `json:"linked"`
	NewInstances int `json:"new_instances"`
	// Untyped counts unlinked records left out because their class has no aligned KB2
	// class.
	Untyped int `json:"untyped"`
	// NearLinks counts new instances whose best KB2 partner has a confidence between θ
	// and ReviewThreshold (or is not of the records' class).
	NearLinks int `json:"near_links"`
	// Review counts records left out for review: not linked, but with a partner of the
	// records' class at ReviewThreshold or more (Understanding.Review lists them).
	Review int `json:"review"`
	// Facts is the number of distinct facts; FactsOnKnown those about KB2 entities.
	Facts        int `json:"facts"`
	FactsOnKnown int `json:"facts_on_known"`
	// Present counts values of linked records that KB2 already has.
	Present int `json:"present"`
	// ReusedEntities and MintedEntities count the distinct middle entities of joins
	// taken from KB2 and minted.
	ReusedEntities int `json:"reused_entities"`
	MintedEntities int `json:"minted_entities"`
	// Conflicts counts values of linked records that differ from the values KB2 has
	// along the aligned relation (left out: "facts the KB lacks" are values of
	// relations the KB has no value for).
	Conflicts int `json:"conflicts"`
	// Ambiguous counts join values that name several KB2 entities (left out).
	Ambiguous int `json:"ambiguous"`
	// Unwritable counts values the aligned path cannot carry: a literal where the path
	// needs an entity, a value without letters or digits for a join, a join of three
	// steps.
	Unwritable int `json:"unwritable"`
	// Unaligned counts values of features that neither aligned nor map to a form field.
	Unaligned int `json:"unaligned"`
	// NewRelations counts relations minted from field labels and used.
	NewRelations int `json:"new_relations"`
}

// Enrichment is the outcome of Enrich: the facts for the KB, in its vocabulary.
type Enrichment struct {
	Understanding *Understanding
	// Facts are the enrichment facts, each with its confidence and record, sorted by
	// triple then record. The same triple can come from several records.
	Facts []Fact
	// Declarations are asserted triples without a confidence: the description of the
	// minted relations (rdf:type rdf:Property, rdfs:label, prov:wasDerivedFrom the KB1
	// feature, schema:domainIncludes the aligned class) and prov:wasDerivedFrom from
	// each new instance to its record.
	Declarations []graph.Triple
	Stats        EnrichStats
	Options      EnrichOptions
}

// Enrich turns the records of KB1 into facts for KB2 with the alignment res (thesis
// ch. 3 §3.7), after understanding them (Understand):
//
//   - a record without a partner ≥ LinkThreshold whose class has an aligned KB2 class
//     becomes a new instance of that class, with an IRI minted in EntityNS from the
//     record IRI (16 hex digits of SHA-256), so that it is the same in every run;
//   - its values become facts under the aligned relations: a direct relation carries
//     the literal (title ⊆ rdfs:label); a join (author ⊆ schema:author / rdfs:label)
//     goes through a middle entity: the one KB2 entity with an exactly matching label
//     (KB.Candidates), of the join's value class if known (else one that already plays
//     that role), or, if there is none, an entity minted in EntityNS from the join and
//     the value's normal form, labelled with the value and typed with the value class.
//     A value naming several KB2 entities is left out (Stats.Ambiguous);
//   - a linked record contributes the facts about its partner that KB2 lacks: values
//     of aligned relations for which the partner has no value at all in KB2. A value
//     that KB2 has (compared as the aligner compares literals) is counted as present;
//     one that differs from KB2's values is counted as a conflict and left out;
//   - values of features that aligned to nothing but map to a form field go under a
//     relation minted in RelationNS from the field's label (RelationName);
//   - every fact has a confidence (Fact.Confidence) and its record as provenance.
//
// opts.Source must be set. Write the result with WriteEnrichment.
func Enrich(ctx context.Context, kb1, kb2 KB, res *Result, opts EnrichOptions) (*Enrichment, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Source == "" {
		return nil, errors.New("align: enrichment needs the source IRI (EnrichOptions.Source) to mint new instances and relations")
	}
	if res == nil {
		return nil, errors.New("align: Enrich needs an alignment result")
	}
	s := newUnderstander(kb1, kb2, res, opts)
	u, err := s.understand(ctx)
	if err != nil {
		return nil, err
	}
	en := &enricher{understander: s, u: u, facts: map[factKey]*Fact{}, resolved: map[resolveKey]resolution{},
		reused: map[graph.ID]bool{}, minted: map[graph.Term]bool{}, usedRel: map[int]bool{}}
	if err := en.run(ctx); err != nil {
		return nil, err
	}
	e := &Enrichment{Understanding: u, Stats: en.stats, Options: opts}
	type keyed struct {
		key string
		f   *Fact
	}
	ks := make([]keyed, 0, len(en.facts))
	for _, f := range en.facts {
		ks = append(ks, keyed{f.Triple.String() + "\n" + f.Record.String(), f})
	}
	slices.SortFunc(ks, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	e.Facts = make([]Fact, len(ks))
	for i, k := range ks {
		e.Facts[i] = *k.f
	}
	distinct := map[graph.Triple]bool{}
	known := map[graph.Triple]bool{}
	for _, f := range e.Facts {
		distinct[f.Triple] = true
		if f.Known {
			known[f.Triple] = true
		}
	}
	e.Stats.Facts, e.Stats.FactsOnKnown = len(distinct), len(known)
	e.Declarations = en.declarations()
	stats := e.Stats
	u.Enrichment = &stats
	s.log.Info("enrichment", "records", e.Stats.Records, "linked", e.Stats.Linked, "new_instances", e.Stats.NewInstances,
		"facts", e.Stats.Facts, "facts_on_known", e.Stats.FactsOnKnown, "minted_entities", e.Stats.MintedEntities,
		"reused_entities", e.Stats.ReusedEntities, "ambiguous", e.Stats.Ambiguous)
	return e, nil
}

type factKey struct {
	t   graph.Triple
	rec graph.Term
}

type resolveKey struct {
	rel  graph.Rel // the KB1 feature
	norm string
}

// resolution is the middle entity of a join value.
type resolution struct {
	node      graph.Term
	id        graph.ID // the KB2 node of a reused entity
	minted    bool
	ambiguous bool
}

type enricher struct {
	*understander
	u        *Understanding
	facts    map[factKey]*Fact
	decls    []graph.Triple
	resolved map[resolveKey]resolution
	reused   map[graph.ID]bool
	minted   map[graph.Term]bool
	usedRel  map[int]bool // index of a RelationNew feature that got a fact
	stats    EnrichStats
}

// MintIRI returns ns followed by the first 16 hex digits (64 bits) of SHA-256 over the
// parts joined by NUL bytes: the minting rule of new instances and entities.
func MintIRI(ns string, parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return ns + hex.EncodeToString(h.Sum(nil)[:8])
}

func (en *enricher) add(f Fact) {
	if f.Confidence <= 0 || math.IsNaN(f.Confidence) {
		return
	}
	f.Confidence = min(f.Confidence, 1)
	k := factKey{f.Triple, f.Record}
	if old, ok := en.facts[k]; ok {
		if f.Confidence > old.Confidence {
			old.Confidence = f.Confidence
		}
		return
	}
	en.facts[k] = &f
}

func (en *enricher) run(ctx context.Context) error {
	u := en.u
	o := en.opts
	typ := graph.NewIRI(graph.RDFType)
	derived := graph.NewIRI(provWasDerivedFrom)
	for i, rec := range u.recs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		en.stats.Records++
		cls := &u.Classes[rec.class]
		partner, hasPartner := u.partners[rec.id]
		linked := en.linked(u.partners, rec.id)
		var subj graph.Term
		base := 1.0
		if linked {
			en.stats.Linked++
			subj, base = partner.RightTerm, partner.Confidence
		} else {
			if cls.alignedID == 0 {
				en.stats.Untyped++
				continue
			}
			if hasPartner && partner.Confidence >= o.ReviewThreshold {
				in, err := en.inClass(ctx, partner.Right, cls.alignedID)
				if err != nil {
					return err
				}
				if in {
					en.stats.Review++
					u.Review = append(u.Review, ReviewItem{Record: termText(rec.term), Candidate: termText(partner.RightTerm), Confidence: partner.Confidence})
					continue
				}
			}
			en.stats.NewInstances++
			if hasPartner {
				en.stats.NearLinks++
			}
			subj = graph.NewIRI(MintIRI(o.entityNS(), "record", rec.term.Value))
			en.add(Fact{Triple: graph.Triple{S: subj, P: typ, O: graph.NewIRI(cls.Aligned)}, Confidence: cls.Confidence, Record: rec.term, Kind: FactType})
			if rec.term.IsIRI() || rec.term.IsBlank() {
				en.decls = append(en.decls, graph.Triple{S: subj, P: derived, O: rec.term})
			}
		}
		for _, rv := range rec.values {
			ri := u.relIdx[rv.rel]
			ru := &u.Relations[ri]
			switch ru.Status {
			case RelationAligned:
				for _, v := range rv.vals {
					if err := en.aligned(ctx, rec, ru, subj, linked, partner, base, v); err != nil {
						return err
					}
				}
			case RelationNew:
				en.usedRel[ri] = true
				p := graph.NewIRI(ru.NewRelation)
				for _, v := range rv.vals {
					en.add(Fact{Triple: graph.Triple{S: subj, P: p, O: atPrecision(ru, v)}, Confidence: base, Record: rec.term, Kind: FactNewRelation, Known: linked})
				}
			default:
				en.stats.Unaligned += len(rv.vals)
			}
		}
	}
	en.stats.ReusedEntities, en.stats.MintedEntities = len(en.reused), len(en.minted)
	en.stats.NewRelations = len(en.usedRel)
	return nil
}

// inClass reports whether KB2 entity x is an instance of class c, directly or through
// rdfs:subClassOf.
func (en *enricher) inClass(ctx context.Context, x, c graph.ID) (bool, error) {
	cs, err := en.typeClosure(ctx, x)
	return slices.Contains(cs, c), err
}

// atPrecision returns v as the feature's values really are: a date of a feature whose
// dates differ only in their year as an xsd:gYear.
func atPrecision(ru *RelationUnderstanding, v graph.Term) graph.Term {
	if ru.Precision != "year" || v.Datatype != graph.XSDDate {
		return v
	}
	d, ok := graph.ParseDate(v.Value)
	if !ok {
		return v
	}
	y, ok := d.Year()
	if !ok {
		return v
	}
	if y < 0 {
		return graph.NewTyped(fmt.Sprintf("-%04d", -y), graph.XSDGYear)
	}
	return graph.NewTyped(fmt.Sprintf("%04d", y), graph.XSDGYear)
}

// orient writes the step r between x and y as a triple: x r y for a forward step,
// y r⁻ x for an inverse one. It reports false when the subject would be a literal.
func (en *enricher) orient(x graph.Term, r graph.Rel, y graph.Term) (graph.Triple, bool) {
	p := graph.NewIRI(en.kb2.RelationIRI(r))
	if r.IsInverse() {
		x, y = y, x
	}
	if x.IsLiteral() {
		return graph.Triple{}, false
	}
	return graph.Triple{S: x, P: p, O: y}, true
}

// aligned writes one value of an aligned feature.
func (en *enricher) aligned(ctx context.Context, rec *recordInfo, ru *RelationUnderstanding, subj graph.Term, linked bool, partner InstanceMatch, base float64, v graph.Term) error {
	p := ru.Aligned.path
	conf := ru.Aligned.Confidence * base
	if linked {
		hops, err := en.walk(ctx, partner.Right, p)
		if err != nil {
			return err
		}
		for _, h := range hops {
			ok, err := en.matches(ctx, v, h.end)
			if err != nil {
				return err
			}
			if ok {
				en.stats.Present++
				return nil
			}
		}
		if len(hops) > 0 {
			// The KB has other values: a variant spelling ("Atwood, Margaret") or a
			// second value. Neither is a fact the KB lacks; minting would duplicate.
			en.stats.Conflicts++
			return nil
		}
	}
	switch p.Len() {
	case 1:
		t, ok := en.orient(subj, p.Step(0), atPrecision(ru, v))
		if !ok {
			en.stats.Unwritable++
			return nil
		}
		en.add(Fact{Triple: t, Confidence: conf, Record: rec.term, Kind: FactValue, Known: linked})
	case 2:
		if !v.IsLiteral() {
			en.stats.Unwritable++
			return nil
		}
		mid, err := en.resolve(ctx, ru, v)
		if err != nil {
			return err
		}
		if mid.ambiguous {
			en.stats.Ambiguous++
			return nil
		}
		if mid.node.IsZero() {
			en.stats.Unwritable++
			return nil
		}
		var label graph.Triple
		if mid.minted {
			var ok bool
			if label, ok = en.orient(mid.node, p.Step(1), v); !ok {
				en.stats.Unwritable++
				return nil
			}
		}
		link, _ := en.orient(subj, p.Step(0), mid.node)
		en.add(Fact{Triple: link, Confidence: conf, Record: rec.term, Kind: FactJoin, Known: linked})
		if !mid.minted {
			en.reused[mid.id] = true
		}
		if mid.minted {
			en.minted[mid.node] = true
			en.add(Fact{Triple: label, Confidence: conf, Record: rec.term, Kind: FactEntityLabel})
			if ru.ValueClass != "" {
				t := graph.Triple{S: mid.node, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(ru.ValueClass)}
				en.add(Fact{Triple: t, Confidence: conf * ru.ValueClassConfidence, Record: rec.term, Kind: FactEntityType})
			}
		}
	default:
		en.stats.Unwritable++
	}
	return nil
}

// resolve finds the middle entity of a join value: the single KB2 entity whose value
// along the join's last step matches v exactly (KB.Candidates), filtered by the value
// class when known and otherwise by the role (an entity that is already the middle of
// the join's first step for some entity); a minted entity when there is none.
func (en *enricher) resolve(ctx context.Context, ru *RelationUnderstanding, v graph.Term) (resolution, error) {
	norm := textnorm.Literal(v.Value)
	if norm == "" {
		return resolution{}, nil
	}
	key := resolveKey{ru.rel, norm}
	if r, ok := en.resolved[key]; ok {
		return r, nil
	}
	p := ru.Aligned.path
	first, last := p.Step(0), p.Step(1)
	cands, err := en.kb2.Candidates(ctx, v.Value, en.opts.Candidates)
	if err != nil {
		return resolution{}, fmt.Errorf("align: candidates of %s in KB2: %w", v, err)
	}
	set := map[graph.ID]bool{}
	for _, c := range cands {
		if !c.Exact || !en.kb2.IsLiteral(c.Node) {
			continue
		}
		ents, err := en.follow(ctx, c.Node, last.Inverse())
		if err != nil {
			return resolution{}, err
		}
		for _, x := range ents {
			set[x] = true
		}
	}
	ents := make([]graph.ID, 0, len(set))
	for x := range set {
		ents = append(ents, x)
	}
	slices.Sort(ents)
	hasRole := func(x graph.ID) (bool, error) {
		ys, err := en.follow(ctx, x, first.Inverse())
		return len(ys) > 0, err
	}
	inClass := func(x graph.ID) (bool, error) {
		cs, err := en.typeClosure(ctx, x)
		return slices.Contains(cs, ru.valueClassID), err
	}
	keep := func(xs []graph.ID, f func(graph.ID) (bool, error)) ([]graph.ID, error) {
		var out []graph.ID
		for _, x := range xs {
			ok, err := f(x)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, x)
			}
		}
		return out, nil
	}
	if ru.valueClassID != 0 {
		ents, err = keep(ents, inClass)
	} else {
		ents, err = keep(ents, hasRole)
	}
	if err != nil {
		return resolution{}, err
	}
	if len(ents) > 1 {
		withRole, err := keep(ents, hasRole)
		if err != nil {
			return resolution{}, err
		}
		if len(withRole) > 0 {
			ents = withRole
		}
	}
	var r resolution
	switch len(ents) {
	case 0:
		r = resolution{node: graph.NewIRI(MintIRI(en.opts.entityNS(), "value", ru.Aligned.Relation, norm)), minted: true}
	case 1:
		t, err := en.term2(ctx, ents[0])
		if err != nil {
			return resolution{}, err
		}
		r = resolution{node: t, id: ents[0]}
	default:
		r = resolution{ambiguous: true}
		en.log.Debug("join value names several KB2 entities; left out", "feature", ru.Relation, "value", v.Value, "entities", len(ents))
	}
	en.resolved[key] = r
	return r, nil
}

// declarations describes the minted relations that got facts.
func (en *enricher) declarations() []graph.Triple {
	out := slices.Clone(en.decls)
	typ, label := graph.NewIRI(graph.RDFType), graph.NewIRI(graph.RDFSLabel)
	for ri := range en.usedRel {
		ru := &en.u.Relations[ri]
		p := graph.NewIRI(ru.NewRelation)
		out = append(out,
			graph.Triple{S: p, P: typ, O: graph.NewIRI(rdfProperty)},
			graph.Triple{S: p, P: label, O: graph.NewLiteral(ru.Label)},
			graph.Triple{S: p, P: graph.NewIRI(provWasDerivedFrom), O: graph.NewIRI(ru.Relation)})
		for _, c := range en.u.Classes {
			if c.Aligned != "" && en.classUses(c, ru.rel) {
				out = append(out, graph.Triple{S: p, P: graph.NewIRI(schemaDomainInclude), O: graph.NewIRI(c.Aligned)})
			}
		}
	}
	return out
}

// classUses reports whether a record of class c has a value of rel.
func (en *enricher) classUses(c ClassUnderstanding, rel graph.Rel) bool {
	for _, r := range en.u.recs {
		if en.u.Classes[r.class].id == c.id && len(valuesOf(r, rel)) > 0 {
			return true
		}
	}
	return false
}

// Confidence returns the lexical form of a confidence as written: four decimals,
// trailing zeros dropped, in the canonical xsd:decimal form ("0.83", "1.0"), and never
// below 0.0001 for a positive confidence.
func Confidence(c float64) string {
	c = math.Round(c*1e4) / 1e4
	if c < 1e-4 {
		c = 1e-4
	}
	if c > 1 {
		c = 1
	}
	s := strconv.FormatFloat(c, 'f', -1, 64)
	if !bytes.ContainsRune([]byte(s), '.') {
		s += ".0"
	}
	return s
}

// reifier returns the blank node of a fact: "r" and 16 hex digits of SHA-256 over the
// fact's N-Triples line and its record, so that the same input gives the same labels.
func reifier(f Fact) graph.Term {
	return graph.NewBlank("r" + MintIRI("", f.Triple.String(), f.Record.String()))
}

// Triples returns every triple of the enrichment: the declarations, the facts, and for
// each fact its reification as Options.Reification says.
func (e *Enrichment) Triples() []graph.Triple {
	out := slices.Clone(e.Declarations)
	conf := graph.NewIRI(e.Options.ConfidencePredicate)
	derived := graph.NewIRI(provWasDerivedFrom)
	for _, f := range e.Facts {
		out = append(out, f.Triple)
		if e.Options.Reification == ReifyNone {
			continue
		}
		r := reifier(f)
		switch e.Options.Reification {
		case ReifyRDF12:
			out = append(out, graph.Triple{S: r, P: graph.NewIRI(rdfReifies), O: graph.NewTripleTerm(f.Triple)})
		case ReifyRDF11:
			out = append(out,
				graph.Triple{S: r, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(rdfStatement)},
				graph.Triple{S: r, P: graph.NewIRI(rdfSubject), O: f.Triple.S},
				graph.Triple{S: r, P: graph.NewIRI(rdfPredicate), O: f.Triple.P},
				graph.Triple{S: r, P: graph.NewIRI(rdfObject), O: f.Triple.O})
		}
		out = append(out, graph.Triple{S: r, P: conf, O: graph.NewTyped(Confidence(f.Confidence), xsdDecimal)})
		if !f.Record.IsLiteral() && !f.Record.IsZero() {
			out = append(out, graph.Triple{S: r, P: derived, O: f.Record})
		}
	}
	return out
}

// WriteEnrichment writes the enrichment as sorted canonical N-Triples (graph.WriteSorted)
// after checking that the output parses back with graph.Reader; nothing is written when
// a triple is invalid.
func WriteEnrichment(w io.Writer, e *Enrichment) error {
	var buf bytes.Buffer
	if err := graph.WriteSorted(&buf, e.Triples()); err != nil {
		return fmt.Errorf("align: enrichment: %w", err)
	}
	rd := graph.NewReader(bytes.NewReader(buf.Bytes()), FileEnrichment)
	for {
		_, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("align: enrichment does not parse back: %w", err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteEnrichmentDir writes enrichment.nt and understanding.json into dir (created if
// needed), each atomically (rundir.WriteFile).
func WriteEnrichmentDir(dir string, e *Enrichment) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{FileEnrichment, func(w io.Writer) error { return WriteEnrichment(w, e) }},
		{FileUnderstanding, func(w io.Writer) error { return WriteUnderstanding(w, e.Understanding) }},
	} {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return fmt.Errorf("write %s: %w", f.name, err)
		}
		if err := rundir.WriteFile(filepath.Join(dir, f.name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
