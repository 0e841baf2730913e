package records

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
)

// ListModel is the learnt selection of record lists: a logistic regression over the
// standardised features of a candidate record pattern (listfeatures.go) that gives the
// probability that the pattern's elements are records. Extract keeps, under
// RegionsAll, every pattern whose probability reaches Threshold and that does not
// overlap a better one; under RegionsBest, the most relevant of them.
//
// The default model is trained on the NEXT-EVAL sample and training set and embedded
// in the package (model_lists.json.gz); TrainListModel fits another.
type ListModel struct {
	// About says what the model was trained on.
	About string `json:"about"`
	// Features names the features, in the order of Weights (featureNames).
	Features []string `json:"features"`
	// Mean and Scale standardise each feature: (v − Mean) / Scale.
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
	// Weights and Bias are the logistic regression's coefficients.
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
	// Lambda is the L2 penalty the model was trained with.
	Lambda float64 `json:"lambda,omitempty"`
	// Threshold is the probability at which a pattern is records. The best pattern of a
	// page needs half of it: the page holds a list of records, and the question is
	// which one.
	Threshold float64 `json:"threshold"`
}

// Check reports whether the model fits this version of the package: the same features
// in the same order, one weight, mean and scale each, a threshold in (0, 1).
func (m *ListModel) Check() error {
	if !slices.Equal(m.Features, featureNames) {
		return fmt.Errorf("%w: the list model's features %v are not this package's %v (train it again)", ErrBadOptions, m.Features, featureNames)
	}
	n := len(featureNames)
	if len(m.Mean) != n || len(m.Scale) != n || len(m.Weights) != n {
		return fmt.Errorf("%w: the list model has %d means, %d scales and %d weights for %d features", ErrBadOptions, len(m.Mean), len(m.Scale), len(m.Weights), n)
	}
	if m.Threshold <= 0 || m.Threshold >= 1 {
		return fmt.Errorf("%w: the list model's threshold must be in (0,1), got %g", ErrBadOptions, m.Threshold)
	}
	return nil
}

// prob returns the probability that a pattern with features f is records.
func (m *ListModel) prob(f []float64) float64 {
	z := m.Bias
	for i, v := range f {
		z += m.Weights[i] * (v - m.Mean[i]) / m.Scale[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// The list model trained on the NEXT-EVAL pages of shared/data (gzip-compressed JSON;
// see docs/decisions/2026-11-27-forest-list-model.md). Regenerate it after changing
// the features or the training with:
//
//	go generate ./records
//
// which needs the shared data (TRAWL_SHARED, or a "shared" folder beside the module).
//
//go:generate go run ./internal/nexteval -out model_lists.json.gz
//go:embed model_lists.json.gz
var embeddedListModel []byte

// DefaultListModel returns the embedded list model.
var DefaultListModel = sync.OnceValues(func() (*ListModel, error) {
	return ReadListModel(bytes.NewReader(embeddedListModel))
})

// ReadListModel reads a list model written by WriteListModel.
func ReadListModel(r io.Reader) (*ListModel, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("list model: %w", err)
	}
	var m ListModel
	if err := json.NewDecoder(zr).Decode(&m); err != nil {
		return nil, fmt.Errorf("list model: %w", err)
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// WriteListModel writes m as gzip-compressed JSON.
func WriteListModel(w io.Writer, m *ListModel) error {
	zw := gzip.NewWriter(w)
	enc := json.NewEncoder(zw)
	enc.SetIndent("", " ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return zw.Close()
}
