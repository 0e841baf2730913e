package align

import (
	"bytes"
	"context"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// sourceOnly is a KB1 that gives Align nothing but a Source: no taxonomy, no literal
// lookups.
type sourceOnly struct{ Source }

// batchRef is a KB2 that gives Align a Reference with batch readers (as a SPARQL
// endpoint would) and counts the calls of each method.
type batchRef struct {
	Reference
	edges, batches, cands, candBatches atomic.Int64
}

func (b *batchRef) Edges(ctx context.Context, n graph.ID) iter.Seq2[graph.Edge, error] {
	b.edges.Add(1)
	return b.Reference.Edges(ctx, n)
}

func (b *batchRef) EdgesBatch(ctx context.Context, nodes []graph.ID, fn func(int, []graph.Edge) error) error {
	b.batches.Add(1)
	for i, n := range nodes {
		var es []graph.Edge
		for e, err := range b.Reference.Edges(ctx, n) {
			if err != nil {
				return err
			}
			es = append(es, e)
		}
		if err := fn(i, es); err != nil {
			return err
		}
	}
	return nil
}

func (b *batchRef) Candidates(ctx context.Context, text string, k int) ([]graph.Candidate, error) {
	b.cands.Add(1)
	return b.Reference.Candidates(ctx, text, k)
}

func (b *batchRef) CandidatesBatch(ctx context.Context, texts []string, k int) ([][]graph.Candidate, error) {
	b.candBatches.Add(1)
	out := make([][]graph.Candidate, len(texts))
	for i, t := range texts {
		cs, err := b.Reference.Candidates(ctx, t, k)
		if err != nil {
			return nil, err
		}
		out[i] = cs
	}
	return out, nil
}

// TestSmallInterfaces aligns Restaurants through a KB1 that is only a Source and a KB2
// that reads in batches: the instances and relations are those of the full KBs, the
// batch readers are used instead of the single ones, and the class pass, which needs
// Taxonomy, is skipped with a warning.
func TestSmallInterfaces(t *testing.T) {
	kb1, kb2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	full, err := Align(t.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ref := &batchRef{Reference: kb2}
	small, err := Align(t.Context(), sourceOnly{kb1}, ref, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if ref.edges.Load() != 0 || ref.batches.Load() == 0 || ref.cands.Load() != 0 || ref.candBatches.Load() == 0 {
		t.Errorf("KB2 calls: Edges %d, EdgesBatch %d, Candidates %d, CandidatesBatch %d; want only batches",
			ref.edges.Load(), ref.batches.Load(), ref.cands.Load(), ref.candBatches.Load())
	}
	if len(small.Classes) != 0 || len(small.Warnings) == 0 || !strings.Contains(small.Warnings[len(small.Warnings)-1], "Taxonomy") {
		t.Errorf("classes %d, warnings %q; want none and a warning naming Taxonomy", len(small.Classes), small.Warnings)
	}
	small.Classes, full.Classes = nil, nil
	var a, b bytes.Buffer
	if err := WriteTSV(&a, full); err != nil {
		t.Fatal(err)
	}
	if err := WriteTSV(&b, small); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("the alignment through the small interfaces differs from the full KBs'")
	}
}
