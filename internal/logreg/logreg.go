// Package logreg trains multinomial logistic regression (softmax regression) on sparse
// features with an L2 penalty, by L-BFGS.
//
// The objective is the one of scikit-learn's LogisticRegression(penalty="l2") with
// C = 1/Lambda: Σᵢ wᵢ·(−log pᵢ[yᵢ]) + Lambda/2·Σ_f penalty_f·‖W_f‖², the intercepts left
// unpenalised (penalty_f = 1 unless Options.Penalty says otherwise).
// L-BFGS: J. Nocedal, "Updating quasi-Newton matrices with limited storage", Math. Comp.
// 35 (1980); two-loop recursion and backtracking Armijo line search as in Nocedal &
// Wright, Numerical Optimization, 2nd ed., Algorithms 7.4 and 3.1.
package logreg

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Sample is one training example: sparse feature values and a class.
type Sample struct {
	// Index and Value list the non-zero features (Value nil means all 1).
	Index []int32
	Value []float32
	// Class is the class index in [0, classes).
	Class int
	// Weight scales the sample's loss (0 means 1).
	Weight float64
}

// Options tunes Train.
type Options struct {
	// Lambda is the L2 penalty on the weights (1/C in scikit-learn's terms).
	Lambda float64
	// MaxIter bounds the L-BFGS iterations; Memory is the number of correction pairs.
	MaxIter, Memory int
	// Penalty scales Lambda per feature (nil: 1 for every feature), so that a few dense
	// features can be penalised less than many sparse ones.
	Penalty []float64
	// Tolerance stops the search when the gradient norm falls below
	// Tolerance·max(1, ‖θ‖), or when the objective improves by less than
	// Tolerance·|f| over 5 iterations.
	Tolerance float64
}

// DefaultOptions returns Lambda 1, 400 iterations, 10 correction pairs, tolerance 1e-6.
func DefaultOptions() Options {
	return Options{Lambda: 1, MaxIter: 400, Memory: 10, Tolerance: 1e-6}
}

// Model is a trained softmax model: W[f*K+k] is the weight of feature f for class k.
type Model struct {
	Features, Classes int
	W                 []float64
	Bias              []float64
}

// Scores returns the class scores (logits) of a sample.
func (m *Model) Scores(s Sample) []float64 {
	z := make([]float64, m.Classes)
	copy(z, m.Bias)
	k := m.Classes
	for i, f := range s.Index {
		if f < 0 || int(f) >= m.Features {
			continue
		}
		v := 1.0
		if s.Value != nil {
			v = float64(s.Value[i])
		}
		row := m.W[int(f)*k : int(f)*k+k]
		for c := range z {
			z[c] += v * row[c]
		}
	}
	return z
}

// Softmax turns scores into probabilities, in place, and returns them.
func Softmax(z []float64) []float64 {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	sum := 0.0
	for i, v := range z {
		z[i] = math.Exp(v - mx)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
	return z
}

// Result reports how training ended.
type Result struct {
	Iterations int
	Objective  float64
	Converged  bool
}

// Train fits a model with features feature slots and classes classes.
func Train(ctx context.Context, samples []Sample, features, classes int, o Options) (*Model, Result, error) {
	if classes < 2 {
		return nil, Result{}, errors.New("logreg: need at least 2 classes")
	}
	if o.Lambda < 0 || o.MaxIter < 1 || o.Memory < 1 || o.Tolerance <= 0 {
		return nil, Result{}, fmt.Errorf("logreg: invalid options (Lambda %g, MaxIter %d, Memory %d, Tolerance %g)", o.Lambda, o.MaxIter, o.Memory, o.Tolerance)
	}
	if o.Penalty != nil && len(o.Penalty) != features {
		return nil, Result{}, fmt.Errorf("logreg: %d penalties for %d features", len(o.Penalty), features)
	}
	for i, s := range samples {
		if s.Class < 0 || s.Class >= classes {
			return nil, Result{}, fmt.Errorf("logreg: sample %d has class %d outside [0,%d)", i, s.Class, classes)
		}
		if s.Value != nil && len(s.Value) != len(s.Index) {
			return nil, Result{}, fmt.Errorf("logreg: sample %d has %d values for %d indexes", i, len(s.Value), len(s.Index))
		}
		for _, f := range s.Index {
			if f < 0 || int(f) >= features {
				return nil, Result{}, fmt.Errorf("logreg: sample %d has feature %d outside [0,%d)", i, f, features)
			}
		}
	}
	k := classes
	nw := features * k
	obj := func(theta, grad []float64) float64 {
		for i := range grad {
			grad[i] = 0
		}
		w, b := theta[:nw], theta[nw:]
		gw, gb := grad[:nw], grad[nw:]
		loss := 0.0
		z := make([]float64, k)
		for _, s := range samples {
			copy(z, b)
			for i, f := range s.Index {
				v := 1.0
				if s.Value != nil {
					v = float64(s.Value[i])
				}
				row := w[int(f)*k : int(f)*k+k]
				for c := range z {
					z[c] += v * row[c]
				}
			}
			mx := math.Inf(-1)
			for _, v := range z {
				mx = max(mx, v)
			}
			sum := 0.0
			for _, v := range z {
				sum += math.Exp(v - mx)
			}
			lse := mx + math.Log(sum)
			sw := s.Weight
			if sw == 0 {
				sw = 1
			}
			loss += sw * (lse - z[s.Class])
			for c := range z {
				d := math.Exp(z[c]-lse) * sw
				if c == s.Class {
					d -= sw
				}
				z[c] = d // reuse z as the residual
			}
			for c := range z {
				gb[c] += z[c]
			}
			for i, f := range s.Index {
				v := 1.0
				if s.Value != nil {
					v = float64(s.Value[i])
				}
				row := gw[int(f)*k : int(f)*k+k]
				for c := range row {
					row[c] += v * z[c]
				}
			}
		}
		reg := 0.0
		for i, v := range w {
			l := o.Lambda
			if o.Penalty != nil {
				l *= o.Penalty[i/k]
			}
			reg += l * v * v
			gw[i] += l * v
		}
		return loss + reg/2
	}
	theta := make([]float64, nw+k)
	res, err := lbfgs(ctx, obj, theta, o)
	if err != nil {
		return nil, res, err
	}
	return &Model{Features: features, Classes: k, W: theta[:nw], Bias: theta[nw:]}, res, nil
}

// lbfgs minimises f from x (updated in place).
func lbfgs(ctx context.Context, f func(x, g []float64) float64, x []float64, o Options) (Result, error) {
	n := len(x)
	g := make([]float64, n)
	fx := f(x, g)
	type pair struct {
		s, y []float64
		rho  float64
	}
	var hist []pair
	d := make([]float64, n)
	xNew := make([]float64, n)
	gNew := make([]float64, n)
	alpha := make([]float64, o.Memory)
	var past []float64
	res := Result{Objective: fx}
	for it := 1; it <= o.MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Iterations = it
		gn, xn := norm(g), norm(x)
		if gn <= o.Tolerance*max(1, xn) {
			res.Converged = true
			return res, nil
		}
		// two-loop recursion: d = -H·g
		copy(d, g)
		for i := len(hist) - 1; i >= 0; i-- {
			h := hist[i]
			alpha[i] = h.rho * dot(h.s, d)
			axpy(-alpha[i], h.y, d)
		}
		if len(hist) > 0 {
			h := hist[len(hist)-1]
			scale(dot(h.s, h.y)/dot(h.y, h.y), d)
		} else {
			scale(1/max(gn, 1), d)
		}
		for i := range hist {
			h := hist[i]
			beta := h.rho * dot(h.y, d)
			axpy(alpha[i]-beta, h.s, d)
		}
		scale(-1, d)
		slope := dot(g, d)
		if slope >= 0 { // not a descent direction: restart from the gradient
			hist = hist[:0]
			copy(d, g)
			scale(-1/max(gn, 1), d)
			slope = dot(g, d)
		}
		step := 1.0
		var fNew float64
		accepted := false
		for range 40 {
			copy(xNew, x)
			axpy(step, d, xNew)
			fNew = f(xNew, gNew)
			if fNew <= fx+1e-4*step*slope {
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			res.Converged = true // no further decrease is possible at this precision
			return res, nil
		}
		s := make([]float64, n)
		y := make([]float64, n)
		for i := range s {
			s[i] = xNew[i] - x[i]
			y[i] = gNew[i] - g[i]
		}
		if sy := dot(s, y); sy > 1e-12 {
			if len(hist) == o.Memory {
				copy(hist, hist[1:])
				hist = hist[:o.Memory-1]
			}
			hist = append(hist, pair{s, y, 1 / sy})
		}
		copy(x, xNew)
		copy(g, gNew)
		fx = fNew
		res.Objective = fx
		past = append(past, fx)
		if len(past) > 5 {
			old := past[len(past)-6]
			if old-fx <= o.Tolerance*math.Abs(fx) {
				res.Converged = true
				return res, nil
			}
		}
	}
	return res, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i := range x {
		y[i] += a * x[i]
	}
}

func scale(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

func norm(x []float64) float64 { return math.Sqrt(dot(x, x)) }
