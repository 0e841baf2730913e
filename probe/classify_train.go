package probe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/logreg"
)

// TrainingForm is an annotated form: a parsed form with its class and the roles of
// its fields.
type TrainingForm struct {
	Form Form
	// Class is the annotated class, "" when the form's class is not annotated.
	Class Class
	// Roles maps field names to roles (one of Roles); nil when the fields are not
	// annotated. Fields whose role is "" are not annotated.
	Roles map[string]string
}

// TrainOptions configures TrainClassifier. Start from DefaultTrainOptions.
type TrainOptions struct {
	// FormLambda and FieldLambda are the L2 penalties of the form and field models
	// (1/C in scikit-learn's terms).
	FormLambda, FieldLambda float64
	// DensePenalty scales FormLambda for the form model's dense features (counts,
	// types, purpose words; see sparseNamespaces). The field model penalises all its
	// features alike: scaling cost it 0.01–0.02 of keyword-box F1 in cross-validation.
	DensePenalty float64
	// MinCount drops the features seen in fewer training examples.
	MinCount int
	// KeywordMin is the keyword probability above which the best text box of a search
	// form with no predicted keyword box is taken as its keyword box.
	KeywordMin float64
	// About is stored in the model file to say what it was trained on.
	About string
	// Logger receives training progress; nil discards it.
	Logger *slog.Logger
}

// DefaultTrainOptions returns the settings chosen by grouped cross-validation on the
// shared Formasaurus pages (docs/benchmarks.md).
func DefaultTrainOptions() TrainOptions {
	return TrainOptions{FormLambda: 0.5, FieldLambda: 0.25, DensePenalty: 0.3, MinCount: 8, KeywordMin: 0.1}
}

// Validate reports the first invalid option.
func (o TrainOptions) Validate() error {
	switch {
	case o.FormLambda <= 0 || o.FieldLambda <= 0:
		return fmt.Errorf("probe: TrainOptions: lambdas must be > 0, got %g and %g", o.FormLambda, o.FieldLambda)
	case o.DensePenalty <= 0 || o.DensePenalty > 1:
		return fmt.Errorf("probe: TrainOptions: DensePenalty must be in (0,1], got %g", o.DensePenalty)
	case o.MinCount < 1:
		return fmt.Errorf("probe: TrainOptions: MinCount must be ≥ 1, got %d", o.MinCount)
	case o.KeywordMin < 0 || o.KeywordMin > 1:
		return fmt.Errorf("probe: TrainOptions: KeywordMin must be in [0,1], got %g", o.KeywordMin)
	}
	return nil
}

// sparseNamespaces are the feature namespaces that hold bags of words or n-grams, many
// features each seen in few forms. The other features (counts, types, positions,
// purpose words) are few and seen everywhere; their weights are penalised less (as Formasaurus leaves its bias unpenalised), so that two password fields
// still count when a form's words are all unknown (TrainOptions.DensePenalty).
var sparseNamespaces = map[string]bool{
	"act": true, "actw": true, "css": true, "cssw": true, "hidden": true, "submit": true,
	"submitcss": true, "name": true, "namew": true, "icss": true, "label": true, "labelg": true,
	"ph": true, "title": true, "opt": true, "link": true, "before": true, "text": true, "w": true,
	"g": true, "id": true, "value": true, "ac": true,
}

// namespace returns the prefix of a feature before its first colon.
func namespace(f string) string {
	if i := strings.IndexByte(f, ':'); i >= 0 {
		return f[:i]
	}
	return f
}

// TrainClassifier trains the form model on the forms with a class, and the field model
// on the annotated fields of the forms that have both a class and field roles (the
// annotated class stands for the form class feature, as in Formasaurus).
func TrainClassifier(ctx context.Context, data []TrainingForm, o TrainOptions) (*Classifier, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var formX [][]string
	var formY []int
	var fieldX [][]string
	var fieldY []int
	for _, d := range data {
		if d.Class == "" {
			continue
		}
		ci := slices.Index(Classes, d.Class)
		if ci < 0 {
			return nil, fmt.Errorf("probe: training form %s: unknown class %q", d.Form.XPath, d.Class)
		}
		f := d.Form
		formX = append(formX, formFeatures(&f))
		formY = append(formY, ci)
		if d.Roles == nil {
			continue
		}
		lay := newLayout(&f)
		for i, fl := range f.Fields {
			role := d.Roles[fl.Name]
			if fl.Name == "" || role == "" || fl.Type == "hidden" {
				continue
			}
			ri := slices.Index(Roles, role)
			if ri < 0 {
				return nil, fmt.Errorf("probe: training form %s field %q: unknown role %q", f.XPath, fl.Name, role)
			}
			fieldX = append(fieldX, fieldFeatures(&f, lay, i, d.Class))
			fieldY = append(fieldY, ri)
		}
	}
	if len(formX) == 0 || len(fieldX) == 0 {
		return nil, errors.New("probe: TrainClassifier: no annotated forms or fields")
	}
	c := &Classifier{keywordMin: o.KeywordMin, about: o.About}
	var err error
	c.form, err = trainLinear(ctx, formX, formY, classNames(), o.FormLambda, o.MinCount, o.DensePenalty)
	if err != nil {
		return nil, fmt.Errorf("probe: train form model: %w", err)
	}
	log.Info("form model trained", "forms", len(formX), "features", len(c.form.weights))
	c.field, err = trainLinear(ctx, fieldX, fieldY, Roles, o.FieldLambda, o.MinCount, 1)
	if err != nil {
		return nil, fmt.Errorf("probe: train field model: %w", err)
	}
	log.Info("field model trained", "fields", len(fieldX), "features", len(c.field.weights))
	return c, nil
}

// trainLinear fits a softmax model over the features seen in at least minCount examples.
func trainLinear(ctx context.Context, xs [][]string, ys []int, labels []string, lambda float64, minCount int, dense float64) (linear, error) {
	df := map[string]int{}
	for _, x := range xs {
		for _, f := range x {
			df[f]++
		}
	}
	index := map[string]int32{}
	var names []string
	for _, x := range xs { // first-seen order keeps the result reproducible
		for _, f := range x {
			if _, ok := index[f]; !ok && df[f] >= minCount {
				index[f] = int32(len(names))
				names = append(names, f)
			}
		}
	}
	samples := make([]logreg.Sample, len(xs))
	for i, x := range xs {
		var idx []int32
		for _, f := range x {
			if j, ok := index[f]; ok {
				idx = append(idx, j)
			}
		}
		samples[i] = logreg.Sample{Index: idx, Class: ys[i]}
	}
	o := logreg.DefaultOptions()
	o.Lambda = lambda
	o.Penalty = make([]float64, len(names))
	for j, n := range names {
		o.Penalty[j] = 1
		if !sparseNamespaces[namespace(n)] {
			o.Penalty[j] = dense
		}
	}
	m, _, err := logreg.Train(ctx, samples, len(names), len(labels), o)
	if err != nil {
		return linear{}, err
	}
	k := len(labels)
	l := linear{labels: labels, bias: m.Bias, weights: make(map[string][]float64, len(names))}
	for j, n := range names {
		l.weights[n] = m.W[j*k : j*k+k]
	}
	return l, nil
}
