package pipeline

import (
	"context"
	"log/slog"

	"github.com/trawl-dev/trawl/ontology"
)

// LookupRow is one match of 'trawl kb lookup' (a JSON line with --json).
type LookupRow struct {
	Entity   string  `json:"entity,omitempty"`
	Label    string  `json:"label,omitempty"`
	Relation string  `json:"relation,omitempty"`
	Literal  string  `json:"literal"`
	Exact    bool    `json:"exact"`
	Score    float64 `json:"score"`
}

// Lookup finds at most limit matches of text in the KB st: the entities whose names
// match (with anyRelation, whose values of any relation match), or with literals the
// matching literals themselves.
func Lookup(ctx context.Context, st *ontology.Store, text string, limit int, literals, anyRelation bool) ([]LookupRow, error) {
	var rows []LookupRow
	if literals {
		cs, err := st.Candidates(ctx, text, limit)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			t, err := st.Term(ctx, c.Node)
			if err != nil {
				return nil, err
			}
			rows = append(rows, LookupRow{Literal: t.String(), Exact: c.Exact, Score: c.Score})
		}
		return rows, nil
	}
	ms, err := st.FindEntities(ctx, text, limit, ontology.FindOptions{AnyRelation: anyRelation})
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		rows = append(rows, LookupRow{Entity: m.IRI, Label: m.Label, Relation: m.Relation, Literal: m.Literal, Exact: m.Exact, Score: m.Score})
	}
	return rows, nil
}

// OpenKB opens the KB in dir, or the demo KB when dir is "".
func OpenKB(ctx context.Context, dir string, log *slog.Logger) (*ontology.Store, error) {
	opts := ontology.DefaultOptions()
	opts.Logger = log
	if dir == "" {
		return ontology.OpenDemo(ctx, opts)
	}
	return ontology.Open(dir, opts)
}
