package records

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/logreg"
)

// trainExample is one candidate pattern as the trainer sees it: standardised features,
// label and weight (the page's share), and the page it comes from.
type trainExample struct {
	x      []float32
	label  float64
	weight float64
	page   int
}

// fitBinary fits the weights (on standardised features) and bias of the list model on
// the examples, each example's weight multiplied by mult[page] (nil: 1).
func fitBinary(ctx context.Context, exs []trainExample, mult []float64, o TrainOptions) ([]float64, float64, logreg.Result, error) {
	if o.L1 > 0 {
		return fitElasticNet(ctx, exs, mult, o)
	}
	n := len(featureNames)
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	var samples []logreg.Sample
	for _, e := range exs {
		m := 1.0
		if mult != nil {
			m = mult[e.page]
		}
		if m == 0 {
			continue
		}
		if e.label > 0 {
			samples = append(samples, logreg.Sample{Index: idx, Value: e.x, Class: 1, Weight: m * e.weight * e.label})
		}
		if e.label < 1 {
			samples = append(samples, logreg.Sample{Index: idx, Value: e.x, Class: 0, Weight: m * e.weight * (1 - e.label)})
		}
	}
	lo := logreg.DefaultOptions()
	lo.Lambda = o.Lambda
	model, res, err := logreg.Train(ctx, samples, n, 2, lo)
	if err != nil {
		return nil, 0, res, err
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = model.W[i*2+1] - model.W[i*2]
	}
	return w, model.Bias[1] - model.Bias[0], res, nil
}

// fitElasticNet fits the binary logistic regression with the penalty
// Lambda/4·‖w‖² + L1·‖w‖₁ (the L2 term is the one the two-class softmax of logreg
// puts on w = W₁ − W₀) by accelerated proximal gradient (FISTA with backtracking).
func fitElasticNet(ctx context.Context, exs []trainExample, mult []float64, o TrainOptions) ([]float64, float64, logreg.Result, error) {
	n := len(featureNames)
	l2 := o.Lambda / 2
	type ex struct {
		x     []float32
		label float64
		w     float64
	}
	var data []ex
	for _, e := range exs {
		m := 1.0
		if mult != nil {
			m = mult[e.page]
		}
		if m > 0 {
			data = append(data, ex{e.x, e.label, m * e.weight})
		}
	}
	// smooth part f(θ) and its gradient; θ = (w, b)
	f := func(th, g []float64) float64 {
		clear(g)
		loss := 0.0
		for _, d := range data {
			z := th[n]
			for i, v := range d.x {
				z += th[i] * float64(v)
			}
			// l·softplus(−z) + (1−l)·softplus(z)
			sp := math.Log1p(math.Exp(-math.Abs(z))) + max(z, 0)
			loss += d.w * (sp - d.label*z)
			r := d.w * (1/(1+math.Exp(-z)) - d.label)
			for i, v := range d.x {
				g[i] += r * float64(v)
			}
			g[n] += r
		}
		for i := 0; i < n; i++ {
			loss += l2 / 2 * th[i] * th[i]
			g[i] += l2 * th[i]
		}
		return loss
	}
	l1 := func(th []float64) float64 {
		s := 0.0
		for i := 0; i < n; i++ {
			s += math.Abs(th[i])
		}
		return o.L1 * s
	}
	x := make([]float64, n+1)
	y := slices.Clone(x)
	xNew := make([]float64, n+1)
	g := make([]float64, n+1)
	gx := make([]float64, n+1)
	t := 1.0
	step := 1.0
	fx := f(x, gx) + l1(x)
	res := logreg.Result{}
	for it := 1; it <= 5000; it++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, res, err
		}
		res.Iterations = it
		fy := f(y, g)
		for {
			for i := range xNew {
				v := y[i] - step*g[i]
				if i < n { // soft threshold; the bias is not penalised
					v = math.Copysign(max(math.Abs(v)-step*o.L1, 0), v)
				}
				xNew[i] = v
			}
			// sufficient decrease: f(x⁺) ≤ f(y) + g·(x⁺−y) + ‖x⁺−y‖²/2step
			q := fy
			for i := range xNew {
				d := xNew[i] - y[i]
				q += g[i]*d + d*d/(2*step)
			}
			if f(xNew, gx) <= q+1e-12 || step < 1e-12 {
				break
			}
			step /= 2
		}
		fNew := f(xNew, gx) + l1(xNew)
		if fNew > fx { // restart the momentum when the objective rises
			t = 1
			copy(y, x)
			continue
		}
		tNew := (1 + math.Sqrt(1+4*t*t)) / 2
		for i := range y {
			y[i] = xNew[i] + (t-1)/tNew*(xNew[i]-x[i])
		}
		dx, xm := 0.0, 1.0
		for i := range x {
			dx, xm = max(dx, math.Abs(xNew[i]-x[i])), max(xm, math.Abs(xNew[i]))
		}
		done := dx <= 1e-7*xm
		copy(x, xNew)
		fx, t = fNew, tNew
		res.Objective = fx
		if done {
			res.Converged = true
			break
		}
	}
	return x[:n:n], x[n], res, nil
}

// bagMultiplicities returns, for each of b bootstrap samples of pages pages, how many
// times each page is drawn; the draws are fixed by seed.
func bagMultiplicities(pages, b int, seed uint64) [][]float64 {
	out := make([][]float64, b)
	for k := range out {
		r := rand.New(rand.NewPCG(seed, uint64(k)))
		m := make([]float64, pages)
		for range pages {
			m[r.IntN(pages)]++
		}
		out[k] = m
	}
	return out
}

// FeatureGroups names the groups of list features, in featureNames order, as the
// comments of featureNames group them.
func FeatureGroups() []string {
	var out []string
	for _, g := range featureGroup {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

var featureGroup = func() []string {
	g := make([]string, len(featureNames))
	for i, n := range featureNames {
		switch {
		case i <= 5:
			g[i] = "relevance"
		case i <= 17:
			g[i] = "repetition"
		case n == "level" || n == "position":
			g[i] = "position"
		case strings.HasPrefix(n, "in_"):
			g[i] = "landmarks"
		case strings.HasPrefix(n, "tag_") || strings.HasPrefix(n, "parent_") || n == "class":
			g[i] = "tags"
		case strings.HasPrefix(n, "nav_") || n == "fields" || n == "groups":
			g[i] = "reasons"
		case strings.HasPrefix(n, "rel_"):
			g[i] = "relative"
		case n == "run_tail" || n == "copied_text" || n == "log_patterns" || n == "sibling_lists":
			g[i] = "among"
		case n == "title_items" || strings.HasPrefix(n, "href_"):
			g[i] = "title_links"
		default:
			g[i] = "text_links"
		}
	}
	return g
}()

// dropMask tells which features belong to the dropped groups.
func dropMask(groups []string) []bool {
	m := make([]bool, len(featureNames))
	for i := range m {
		m[i] = slices.Contains(groups, featureGroup[i])
	}
	return m
}
