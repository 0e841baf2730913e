package formasaurus

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/trawl-dev/trawl/probe"
)

// Training returns the examples as probe training forms.
func Training(exs []Example) []probe.TrainingForm {
	out := make([]probe.TrainingForm, len(exs))
	for i, e := range exs {
		out[i] = probe.TrainingForm{Form: e.Form, Class: e.Class, Roles: e.Roles}
	}
	return out
}

// CrossValidate trains a classifier on k−1 folds and classifies the forms of the k-th,
// for each of the k folds of Folds (grouped by registered domain), and returns the forms
// as classified when they were held out. The folds run in parallel on all CPUs.
func CrossValidate(ctx context.Context, exs []Example, k int, o probe.TrainOptions) ([]probe.Form, error) {
	if k < 2 {
		return nil, fmt.Errorf("formasaurus: need at least 2 folds, got %d", k)
	}
	folds := Folds(exs, k)
	data := Training(exs)
	pred := make([]probe.Form, len(exs))
	errs := make([]error, k)
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for fold := range k {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var train []probe.TrainingForm
			for i, d := range data {
				if folds[i] != fold {
					train = append(train, d)
				}
			}
			c, err := probe.TrainClassifier(ctx, train, o)
			if err != nil {
				errs[fold] = fmt.Errorf("fold %d: %w", fold, err)
				return
			}
			for i := range exs {
				if folds[i] == fold {
					f := exs[i].Form
					f.Fields = append([]probe.Field(nil), f.Fields...)
					c.Classify(&f)
					pred[i] = f
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pred, nil
}
