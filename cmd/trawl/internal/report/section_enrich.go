package report

import (
	"cmp"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// The enrichment section: what the KB would gain.

func (b *builder) enrichment() enrichView {
	d := b.d
	v := enrichView{Section: b.sectionOf(rundir.EnrichmentFile, rundir.UnderstandingFile), Path: filepath.Join(d.dir, rundir.EnrichmentFile)}
	if u := d.understanding; u != nil && u.Enrichment != nil {
		v.Known = true
		v.Stats = enrichStats(u.Enrichment)
	}
	e := d.enrichment
	if e == nil {
		return v
	}
	v.Known = true
	v.Triples, v.Declarations = e.Triples, len(e.Declarations)
	v.Facts, v.ByPredicate = b.factsByPredicate(e)
	fr := b.newFactRows(e)
	v.Instances, v.MoreNew = fr.newInstances(b)
	v.OnKnown, v.MoreKnown = fr.onKnown(b)
	return v
}

// enrichStats lists the counts of understanding.json's enrichment summary.
func enrichStats(st *align.EnrichStats) []kv {
	return []kv{
		{"records", strconv.Itoa(st.Records)},
		{"linked to the KB (known)", strconv.Itoa(st.Linked)},
		{"new instances", strconv.Itoa(st.NewInstances)},
		{"new facts (distinct triples)", strconv.Itoa(st.Facts)},
		{"of which about entities the KB has", strconv.Itoa(st.FactsOnKnown)},
		{"values the KB already has", strconv.Itoa(st.Present)},
		{"values that differ from the KB's (left out)", strconv.Itoa(st.Conflicts)},
		{"join values naming several KB entities (left out)", strconv.Itoa(st.Ambiguous)},
		{"KB entities reused as join values", strconv.Itoa(st.ReusedEntities)},
		{"entities minted for join values", strconv.Itoa(st.MintedEntities)},
		{"relations minted from field labels", strconv.Itoa(st.NewRelations)},
		{"new instances with a near link (review)", strconv.Itoa(st.NearLinks)},
		{"unlinked records without an aligned class (left out)", strconv.Itoa(st.Untyped)},
		{"values of unaligned, unmapped features (left out)", strconv.Itoa(st.Unaligned)},
		{"values the aligned path cannot carry (left out)", strconv.Itoa(st.Unwritable)},
	}
}

// factsByPredicate counts the distinct facts of enrichment.nt per predicate, most first,
// with their mean confidence.
func (b *builder) factsByPredicate(e *enrichmentData) (int, []predCount) {
	distinct := map[graph.Triple]bool{}
	type agg struct {
		n    int
		sum  float64
		nsum int
	}
	byPred := map[string]*agg{}
	for _, f := range e.Facts {
		if distinct[f.T] {
			continue
		}
		distinct[f.T] = true
		a := byPred[f.T.P.Value]
		if a == nil {
			a = &agg{}
			byPred[f.T.P.Value] = a
		}
		a.n++
		if f.Confidence >= 0 {
			a.sum += f.Confidence
			a.nsum++
		}
	}
	var out []predCount
	for _, p := range slices.Sorted(maps.Keys(byPred)) {
		a := byPred[p]
		pc := predCount{Predicate: b.nm.short(p), Full: p, Count: a.n}
		if a.nsum > 0 {
			pc.Mean = conf(a.sum / float64(a.nsum))
		}
		out = append(out, pc)
	}
	slices.SortStableFunc(out, func(x, y predCount) int { return cmp.Compare(y.Count, x.Count) })
	return len(distinct), out
}

// factRows are the facts of enrichment.nt arranged for showing: the new instances (the
// subjects declared as derived from a record) in order, the labels of minted entities,
// and the facts by subject.
type factRows struct {
	e        *enrichmentData
	newFrom  map[string]string // new instance → its record
	newOrder []string
	labels   map[string]string
	factsOf  map[string][]enrichFact
}

func (b *builder) newFactRows(e *enrichmentData) *factRows {
	const derived = "http://www.w3.org/ns/prov#wasDerivedFrom"
	fr := &factRows{e: e, newFrom: map[string]string{}, labels: map[string]string{}, factsOf: map[string][]enrichFact{}}
	for _, t := range e.Declarations {
		if t.P.Value == derived && t.S.IsIRI() {
			if _, ok := fr.newFrom[t.S.Value]; !ok {
				fr.newOrder = append(fr.newOrder, t.S.Value)
			}
			fr.newFrom[t.S.Value] = termKey(t.O)
		}
	}
	// Labels of minted entities, to show a join's value by name.
	for _, f := range e.Facts {
		if f.T.P.Value == graph.RDFSLabel && f.T.O.IsLiteral() && f.T.S.IsIRI() {
			fr.labels[f.T.S.Value] = f.T.O.Value
		}
		fr.factsOf[termKey(f.T.S)] = append(fr.factsOf[termKey(f.T.S)], f)
	}
	return fr
}

// row shows one fact, its objects and subjects named by label where one is known.
func (fr *factRows) row(b *builder, f enrichFact, withSubject bool) factRow {
	r := factRow{Predicate: b.nm.short(f.T.P.Value), Object: clip(b.nm.shortTerm(f.T.O))}
	if f.T.O.IsIRI() {
		r.ObjectIsIRI = true
		if l := fr.labels[f.T.O.Value]; l != "" {
			r.Object += " “" + clip(l) + "”"
		} else if l := b.kbl.label(b.ctx, f.T.O.Value); l != "" {
			r.Object += " “" + clip(l) + "”"
		}
	}
	if f.Confidence >= 0 {
		r.Conf = conf(f.Confidence)
	}
	if withSubject {
		r.Subject = b.nm.short(termKey(f.T.S))
		if l := b.kbl.label(b.ctx, f.T.S.Value); l != "" {
			r.Subject += " “" + clip(l) + "”"
		} else if f.T.S.IsIRI() && !strings.HasPrefix(f.T.S.Value, b.nm.src+"/") {
			r.Subject += " (" + clip(iriLabel(f.T.S.Value)) + ")"
		}
	}
	return r
}

// newInstances shows the first new instances with their facts, and how many more there are.
func (fr *factRows) newInstances(b *builder) ([]instanceView, int) {
	var out []instanceView
	for i, s := range fr.newOrder {
		if i >= sampleNew {
			return out, len(fr.newOrder) - sampleNew
		}
		iv := instanceView{IRI: b.nm.short(s), Full: s, Record: b.nm.short(fr.newFrom[s]), Title: clip(recordTitle(b.d.graph, b.titleP, fr.newFrom[s]))}
		seen := map[graph.Triple]bool{}
		for _, f := range fr.factsOf[s] {
			if seen[f.T] {
				continue
			}
			seen[f.T] = true
			iv.Facts = append(iv.Facts, fr.row(b, f, false))
		}
		out = append(out, iv)
	}
	return out, 0
}

// onKnown shows the first facts about entities the KB has, and how many more there are.
func (fr *factRows) onKnown(b *builder) ([]factRow, int) {
	var out []factRow
	known := 0
	seen := map[graph.Triple]bool{}
	for _, f := range fr.e.Facts {
		s := termKey(f.T.S)
		if _, isNew := fr.newFrom[s]; isNew || seen[f.T] || fr.labels[s] != "" && strings.HasPrefix(s, b.nm.src+"/") {
			continue
		}
		if b.nm.src != "" && strings.HasPrefix(s, b.nm.src+"/") {
			continue // a minted middle entity (an author the KB lacks): shown with its instance
		}
		seen[f.T] = true
		known++
		if len(out) < sampleKnown {
			out = append(out, fr.row(b, f, true))
		}
	}
	return out, known - len(out)
}
