package logreg

import (
	"math"
	"testing"
)

// objective recomputes the training objective independently of Train.
func objective(m *Model, samples []Sample, lambda float64, penalty []float64) float64 {
	loss := 0.0
	for _, s := range samples {
		p := Softmax(m.Scores(s))
		loss -= math.Log(p[s.Class])
	}
	reg := 0.0
	for i, w := range m.W {
		l := lambda
		if penalty != nil {
			l *= penalty[i/m.Classes]
		}
		reg += l * w * w
	}
	return loss + reg/2
}

func toyData() []Sample {
	// feature 0 votes class 0, feature 1 class 1, feature 2 class 2, feature 3 noise
	return []Sample{
		{Index: []int32{0}, Class: 0}, {Index: []int32{0, 3}, Class: 0}, {Index: []int32{0}, Class: 1},
		{Index: []int32{1}, Class: 1}, {Index: []int32{1, 3}, Class: 1}, {Index: []int32{1, 3}, Class: 1},
		{Index: []int32{2}, Class: 2}, {Index: []int32{2, 3}, Class: 2}, {Index: []int32{2, 0}, Class: 0},
		{Index: []int32{3}, Class: 2, Value: []float32{0.5}},
	}
}

// TestTrainReachesTheOptimum checks that the returned weights are a stationary point of
// the objective (central finite differences) and that perturbing them costs more.
func TestTrainReachesTheOptimum(t *testing.T) {
	samples := toyData()
	for _, tc := range []struct {
		lambda  float64
		penalty []float64
	}{{0.1, nil}, {1, nil}, {5, nil}, {1, []float64{0.1, 1, 2, 0.5}}} {
		lambda, penalty := tc.lambda, tc.penalty
		o := DefaultOptions()
		o.Lambda = lambda
		o.Penalty = penalty
		o.Tolerance = 1e-9
		m, res, err := Train(t.Context(), samples, 4, 3, o)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged {
			t.Errorf("λ=%g: not converged after %d iterations", lambda, res.Iterations)
		}
		f0 := objective(m, samples, lambda, penalty)
		if math.Abs(f0-res.Objective) > 1e-6*math.Max(1, f0) {
			t.Errorf("λ=%g: reported objective %v, recomputed %v", lambda, res.Objective, f0)
		}
		params := append(m.W, m.Bias...)
		const h = 1e-5
		for i := range params {
			keep := params[i]
			set := func(v float64) {
				params[i] = v
				if i < len(m.W) {
					m.W[i] = v
				} else {
					m.Bias[i-len(m.W)] = v
				}
			}
			set(keep + h)
			fp := objective(m, samples, lambda, penalty)
			set(keep - h)
			fm := objective(m, samples, lambda, penalty)
			set(keep)
			if g := (fp - fm) / (2 * h); math.Abs(g) > 1e-4 {
				t.Errorf("λ=%g: gradient %d = %v at the solution", lambda, i, g)
			}
			if fp < f0-1e-12 || fm < f0-1e-12 {
				t.Errorf("λ=%g: moving parameter %d lowers the objective", lambda, i)
			}
		}
	}
}

func TestTrainPredicts(t *testing.T) {
	m, _, err := Train(t.Context(), toyData(), 4, 3, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for f, want := range []int{0, 1, 2} {
		p := Softmax(m.Scores(Sample{Index: []int32{int32(f)}}))
		best := 0
		for c := range p {
			if p[c] > p[best] {
				best = c
			}
		}
		if best != want {
			t.Errorf("feature %d predicts class %d (%v), want %d", f, best, p, want)
		}
	}
	// unknown features are ignored at prediction time
	_ = m.Scores(Sample{Index: []int32{99, -1}})
}

func TestTrainRejectsBadInput(t *testing.T) {
	tests := []struct {
		name    string
		samples []Sample
		feats   int
		classes int
	}{
		{"one class", toyData(), 4, 1},
		{"class out of range", []Sample{{Index: []int32{0}, Class: 3}}, 4, 3},
		{"feature out of range", []Sample{{Index: []int32{4}, Class: 0}}, 4, 3},
		{"values mismatch", []Sample{{Index: []int32{0, 1}, Value: []float32{1}, Class: 0}}, 4, 3},
	}
	for _, tc := range tests {
		if _, _, err := Train(t.Context(), tc.samples, tc.feats, tc.classes, DefaultOptions()); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	o := DefaultOptions()
	o.Penalty = []float64{1}
	if _, _, err := Train(t.Context(), toyData(), 4, 3, o); err == nil {
		t.Error("penalties of the wrong length: no error")
	}
}
