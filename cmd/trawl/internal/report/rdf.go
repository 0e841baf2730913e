package report

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/schema"
)

// Reading RDF for people: IRIs are shortened with well-known prefixes and the source's
// own namespace, entities are named by a label where one is known.

// rdfPrefixes are the prefixes the report shortens IRIs with, longest namespace first
// where two overlap.
var rdfPrefixes = []struct{ prefix, ns string }{
	{"rdf", graph.RDF},
	{"rdfs", graph.RDFS},
	{"xsd", graph.XSD},
	{"owl", graph.OWL},
	{"schema", "http://schema.org/"},
	{"schema", "https://schema.org/"},
	{"yago", "http://yago-knowledge.org/resource/"},
	{"prov", "http://www.w3.org/ns/prov#"},
	{"void", "http://rdfs.org/ns/void#"},
	{"dcterms", "http://purl.org/dc/terms/"},
	{"skos", "http://www.w3.org/2004/02/skos/core#"},
	{"foaf", "http://xmlns.com/foaf/0.1/"},
	{"wd", "http://www.wikidata.org/entity/"},
	{"dbr", "http://dbpedia.org/resource/"},
	{"dbo", "http://dbpedia.org/ontology/"},
}

// namer shortens IRIs. src is the source IRI of the run's graph (its records, features
// and minted entities live under it).
type namer struct {
	src string
}

// short returns a compact form of an IRI: prefix:local for a known namespace, or a
// path relative to the source ("rec/…", "p/title", "entity/…"), else the IRI itself.
func (nm namer) short(iri string) string {
	if nm.src != "" && strings.HasPrefix(iri, nm.src+"/") {
		return "src:" + iri[len(nm.src)+1:]
	}
	for _, p := range rdfPrefixes {
		if strings.HasPrefix(iri, p.ns) && len(iri) > len(p.ns) {
			local := iri[len(p.ns):]
			if u, err := url.PathUnescape(local); err == nil && utf8.ValidString(u) {
				local = u // yago:Trainspotting_(book), not …_%28book%29
			}
			return p.prefix + ":" + local
		}
	}
	return iri
}

// shortPath shortens a path in alignment.tsv notation: IRIs joined by " / ", an
// inverse step with a trailing "-".
func (nm namer) shortPath(path string) string {
	steps := strings.Split(path, " / ")
	for i, s := range steps {
		inv := strings.HasSuffix(s, "-")
		s = nm.short(strings.TrimSuffix(s, "-"))
		if inv {
			s += "⁻"
		}
		steps[i] = s
	}
	return strings.Join(steps, " / ")
}

// shortTerm writes a term for people: a literal's text, an IRI shortened.
func (nm namer) shortTerm(t graph.Term) string {
	switch t.Kind {
	case graph.KindIRI:
		return nm.short(t.Value)
	case graph.KindLiteral:
		return t.Value
	case graph.KindBlank:
		return "_:" + t.Value
	}
	return t.String()
}

// iriLabel makes a readable name from an IRI's last segment ("Never_Let_Me_Go_(novel)"
// → "Never Let Me Go (novel)"), for entities whose label is not known.
func iriLabel(iri string) string {
	local := cmp.Or(graph.LocalName(iri), iri)
	if u, err := url.PathUnescape(local); err == nil {
		local = u
	}
	return strings.TrimSpace(strings.ReplaceAll(local, "_", " "))
}

// labelLocal are the local names of relations that name an entity.
var labelLocal = map[string]bool{
	"label": true, "name": true, "title": true, "prefLabel": true, "hasPreferredName": true,
	"preferredName": true, "hasLabel": true,
}

// titlePredicate picks the graph predicate whose value names a record best: the
// feature aligned to a naming relation of the KB (rdfs:label, schema:name …), else a
// feature called title or name, else the string feature with the most distinct values.
func titlePredicate(u *align.Understanding, s *schema.Schema, g *graphData) string {
	if u != nil {
		for _, r := range u.Relations {
			if r.Aligned != nil && !r.Aligned.Join && labelLocal[graph.LocalName(strings.TrimSuffix(r.Aligned.Relation, "-"))] {
				return r.Relation
			}
		}
	}
	if g == nil {
		return ""
	}
	pred := func(name string) string {
		suffix := "/p/" + graph.PathSegment(name)
		for _, vals := range g.Values {
			for p := range vals {
				if strings.HasSuffix(p, suffix) {
					return p
				}
			}
		}
		return ""
	}
	if s != nil {
		for _, want := range []string{"title", "name"} {
			for _, f := range s.Features {
				if f.Kind == schema.KindLink {
					continue
				}
				if textnorm.Fold(f.Name) == want || textnorm.Fold(f.Label) == want {
					if p := pred(f.Name); p != "" {
						return p
					}
				}
			}
		}
		best, bestN := "", -1
		for _, f := range s.Features {
			if f.Kind == schema.KindLink || f.Type != schema.TypeString {
				continue
			}
			if f.Distinct > bestN {
				if p := pred(f.Name); p != "" {
					best, bestN = p, f.Distinct
				}
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// recordTitle returns the title-like value of a record of the graph.
func recordTitle(g *graphData, titlePred, rec string) string {
	if g == nil {
		return ""
	}
	vals := g.Values[rec]
	if vals == nil {
		return ""
	}
	if titlePred != "" {
		for _, v := range vals[titlePred] {
			if v.IsLiteral() {
				return v.Value
			}
		}
	}
	preds := make([]string, 0, len(vals))
	for p := range vals {
		preds = append(preds, p)
	}
	slices.Sort(preds)
	for _, p := range preds {
		for _, v := range vals[p] {
			if graph.IsStringLiteral(v) {
				return v.Value
			}
		}
	}
	return ""
}

// kbLabels looks up entity labels in a KB, with a cache; nil KB means no lookups.
type kbLabels struct {
	kb    align.KB
	cache map[string]string
}

// maxLabelEdges bounds the edges read per entity (hubs have millions).
const maxLabelEdges = 5000

// label returns the KB's label of an entity IRI: its rdfs:label, else another naming
// relation's literal, preferring English and untagged literals; "" when none is known.
func (kl *kbLabels) label(ctx context.Context, iri string) string {
	if kl == nil || kl.kb == nil {
		return ""
	}
	if l, ok := kl.cache[iri]; ok {
		return l
	}
	best, bestRank := "", 99
	if id, ok, err := kl.kb.Lookup(ctx, graph.NewIRI(iri)); err == nil && ok {
		n := 0
		for e, err := range kl.kb.Edges(ctx, id) {
			if err != nil || n >= maxLabelEdges {
				break
			}
			n++
			if e.Rel.IsInverse() || !kl.kb.IsLiteral(e.Node) {
				continue
			}
			rel := kl.kb.RelationIRI(e.Rel)
			var rank int
			switch {
			case rel == graph.RDFSLabel:
				rank = 0
			case labelLocal[graph.LocalName(rel)]:
				rank = 1
			default:
				continue
			}
			t, err := kl.kb.Term(ctx, e.Node)
			if err != nil {
				continue
			}
			if t.Lang != "" && t.Lang != "en" && !strings.HasPrefix(t.Lang, "en-") {
				rank += 2
			}
			if rank < bestRank {
				best, bestRank = t.Value, rank
			}
		}
	}
	if kl.cache == nil {
		kl.cache = map[string]string{}
	}
	kl.cache[iri] = best
	return best
}
