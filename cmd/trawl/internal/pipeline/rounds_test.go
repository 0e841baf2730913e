package pipeline

import (
	"testing"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/schema"
)

// TestTentativePlan: a search box mapped to a title feature whose best alignment is
// still under the floor (PARIS's damping on a small overlap with the KB) is planned from
// that tentative alignment when nothing is understood, and from the understood one
// otherwise; a round that raises the tentative confidence counts as an improvement only
// while nothing is understood.
func TestTentativePlan(t *testing.T) {
	ns, err := graph.NewNamespace("https://trawl.invalid", "site")
	if err != nil {
		t.Fatal(err)
	}
	mem, err := graph.NewMemory([]graph.Triple{
		{S: graph.NewIRI("http://kb.example/b1"), P: graph.NewIRI(graph.RDFSLabel), O: graph.NewLiteral("Emma")},
		{S: graph.NewIRI("http://kb.example/b1"), P: graph.NewIRI("http://schema.org/author"), O: graph.NewIRI("http://kb.example/a1")},
	})
	if err != nil {
		t.Fatal(err)
	}
	title := ns.Predicate("title").Value
	in := &planInput{
		kb:     mem,
		form:   probe.Form{Fields: []probe.Field{{Name: "q", Type: "text"}}},
		ns:     ns,
		schema: &schema.Schema{Mapping: []schema.Mapping{{Field: "q", Feature: "title", Relation: schema.RelContains}}},
		under: &align.Understanding{Relations: []align.RelationUnderstanding{
			{Relation: title, Super: []align.RelationScore{{Relation: graph.RDFSLabel, Confidence: 0.36}}},
		}},
	}
	p := New(DefaultOptions(), nil)
	defer p.Close()
	cs := p.planCandidates(in)
	if len(cs) != 1 || cs[0].field.Name != "q" || cs[0].relation != graph.RDFSLabel {
		t.Fatalf("tentative candidates %+v, want q along rdfs:label", cs)
	}
	in.under.Relations = append(in.under.Relations, align.RelationUnderstanding{
		Relation: ns.Predicate("author").Value, Aligned: &align.RelationScore{Relation: "http://schema.org/author", Confidence: 0.8},
	})
	in.schema.Mapping = append(in.schema.Mapping, schema.Mapping{Field: "q", Feature: "author", Relation: schema.RelContains})
	if cs := p.planCandidates(in); len(cs) != 1 || cs[0].relation != "http://schema.org/author" {
		t.Errorf("with an understood relation, candidates %+v, want only it", cs)
	}

	before := RoundSummary{Tentative: 0.34}
	if !(RoundSummary{Tentative: 0.46}).improves(before) {
		t.Error("a higher tentative confidence with nothing understood is no improvement")
	}
	if (RoundSummary{Relations: 1, Confidence: 0.6, Tentative: 0.46}).improves(RoundSummary{Relations: 1, Confidence: 0.6, Tentative: 0.3}) {
		t.Error("the tentative confidence counts although a relation is understood")
	}
}
