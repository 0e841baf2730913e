package sparql

import (
	"context"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// literalNode and literalRel carry the literals of the endpoint in the in-memory graph
// that serves as the literal index; they never reach the aligner.
const (
	literalNode = "urn:trawl:sparql:literals"
	literalRel  = "urn:trawl:sparql:value"
)

// literalIndex reads the literals of the endpoint once (page by page) into an
// in-memory graph whose literal index answers Candidates with graph.MatchLiterals,
// the semantics of every trawl KB. With more than MaxLiterals literals it returns nil:
// Candidates then asks for the text's lexical variants.
func (kb *KB) literalIndex(ctx context.Context) (*graph.Memory, error) {
	kb.litOnce.Do(func() {
		var triples []graph.Triple
		s, p := graph.NewIRI(literalNode), graph.NewIRI(literalRel)
		q := "SELECT DISTINCT ?o " + kb.from + "WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }"
		err := kb.pages(ctx, q, "?o", func(r row) error {
			if len(triples) >= kb.o.MaxLiterals {
				return errTooMany
			}
			triples = append(triples, graph.Triple{S: s, P: p, O: r["o"]})
			return nil
		})
		switch {
		case err == errTooMany:
			kb.log.Info("sparql: too many literals for a local index; exact lookups of each text's variants", "max", kb.o.MaxLiterals)
			return
		case err != nil:
			kb.litErr = err
			return
		}
		kb.lit, kb.litErr = graph.NewMemory(triples)
		kb.log.Debug("sparql: literal index", "literals", len(triples))
	})
	return kb.lit, kb.litErr
}

type tooMany struct{}

func (tooMany) Error() string { return "too many literals" }

var errTooMany error = tooMany{}

// Candidates returns up to k literal nodes that match text: graph.MatchLiterals over
// the endpoint's literals, or, for an endpoint with more than MaxLiterals literals, the
// literals that are one of the text's lexical variants (as written, trimmed, lower
// case; plain, English or untagged), each an exact match.
func (kb *KB) Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error) {
	m, err := kb.literalIndex(ctx)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return kb.exactCandidates(ctx, text, k)
	}
	cs, err := m.Candidates(ctx, text, k)
	if err != nil {
		return nil, err
	}
	for i := range cs {
		t, err := m.Term(ctx, cs[i].Node)
		if err != nil {
			return nil, err
		}
		cs[i].Node = kb.intern(t)
	}
	return cs, nil
}

func (kb *KB) exactCandidates(ctx context.Context, text string, k int) ([]graph.Candidate, error) {
	var values strings.Builder
	seen := map[string]bool{}
	for _, v := range []string{text, strings.TrimSpace(text), strings.ToLower(strings.TrimSpace(text))} {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		for _, t := range []graph.Term{graph.NewLiteral(v), graph.NewLangString(v, "en")} {
			values.WriteString(t.String())
			values.WriteByte(' ')
		}
	}
	if values.Len() == 0 {
		return nil, nil
	}
	q := "SELECT DISTINCT ?o " + kb.from + "WHERE { VALUES ?o { " + values.String() + "} ?s ?p ?o }"
	rows, err := kb.c.selectRows(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []graph.Candidate
	for _, r := range rows {
		if len(out) == k {
			break
		}
		out = append(out, graph.Candidate{Node: kb.intern(r["o"]), Exact: true, Score: 1})
	}
	return out, nil
}
