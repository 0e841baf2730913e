package benchmark

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// PRF is precision, recall and F1.
type PRF struct{ P, R, F float64 }

func (m PRF) String() string { return fmt.Sprintf("P=%.3f R=%.3f F1=%.3f", m.P, m.R, m.F) }

// NewPRF returns P, R and F1 for an overlap total over predicted and true counts: 1
// when nothing is predicted and nothing is true, 0 when only one side is empty.
func NewPRF(total float64, predicted, truth int) PRF {
	switch {
	case predicted == 0 && truth == 0:
		return PRF{1, 1, 1}
	case predicted == 0 || truth == 0:
		return PRF{}
	}
	p := total / float64(predicted)
	r := total / float64(truth)
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return PRF{p, r, f}
}

// Mean returns the unweighted mean of ms (zero for none).
func Mean(ms []PRF) PRF {
	var s PRF
	for _, m := range ms {
		s.P += m.P
		s.R += m.R
		s.F += m.F
	}
	if n := float64(len(ms)); n > 0 {
		s.P, s.R, s.F = s.P/n, s.R/n, s.F/n
	}
	return s
}

// Score is the benchmark's score of one page: the predicted records against the true
// ones, each a list of absolute XPaths (with or without /html[1]), on the page's tree
// doc.
func Score(doc *html.Node, pred, truth [][]string) PRF {
	keys := Keys(doc)
	return Overlap(Records(keys, pred), Records(keys, truth))
}

// jsSpace reports the characters JavaScript's String.prototype.trim removes
// (WhiteSpace and LineTerminator of ECMA-262: U+FEFF included, U+0085 not).
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Keys returns the keys of the benchmark's flat text map of a page, sorted.
func Keys(doc *html.Node) []string {
	set := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Type == html.ElementNode &&
			strings.TrimFunc(n.Data, jsSpace) != "" {
			set[keyOf(n.Parent)] = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// keyOf is the benchmark's XPath of an element: lower-case tags with per-tag indices
// from below the root element ("/" for the root element itself).
func keyOf(n *html.Node) string {
	var steps []string
	for c := n; c != nil && c.Type == html.ElementNode; c = c.Parent {
		k := 1
		for s := c.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == c.Data {
				k++
			}
		}
		steps = append(steps, c.Data+"["+strconv.Itoa(k)+"]")
	}
	if len(steps) <= 1 {
		return "/"
	}
	var b strings.Builder
	for i := len(steps) - 2; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

// Records maps records (lists of absolute XPaths) to sets of text-map keys the way the
// benchmark does: /html[1] or /html removed, [1] added to steps without an index, then
// every key that starts with the path.
func Records(keys []string, recs [][]string) []map[string]bool {
	out := make([]map[string]bool, 0, len(recs))
	for _, r := range recs {
		set := map[string]bool{}
		for _, xp := range r {
			switch {
			case strings.HasPrefix(xp, "/html[1]"):
				xp = xp[len("/html[1]"):]
			case strings.HasPrefix(xp, "/html"):
				xp = xp[len("/html"):]
			}
			if xp != "" {
				steps := strings.Split(xp, "/")
				for k, s := range steps {
					if s != "" && !strings.HasSuffix(s, "]") {
						steps[k] = s + "[1]"
					}
				}
				xp = strings.Join(steps, "/")
			}
			i, _ := slices.BinarySearch(keys, xp)
			for ; i < len(keys) && strings.HasPrefix(keys[i], xp); i++ {
				set[keys[i]] = true
			}
		}
		out = append(out, set)
	}
	return out
}

// Jaccard is |a∩b| / |a∪b| (1 for two empty sets).
func Jaccard[K comparable](a, b map[K]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	small, big := a, b
	if len(small) > len(big) {
		small, big = big, small
	}
	for n := range small {
		if big[n] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Overlap matches predicted and true records one to one maximising the total Jaccard
// overlap of their unit sets and returns P, R and F1 of one page. Records that share
// no unit have overlap 0 (two empty records have overlap 1, as in the benchmark), so
// the assignment is solved per connected component of the overlap graph.
func Overlap[K comparable](pred, truth []map[K]bool) PRF {
	owner := map[K][]int{}
	var emptyT []int
	for j, t := range truth {
		for n := range t {
			owner[n] = append(owner[n], j)
		}
		if len(t) == 0 {
			emptyT = append(emptyT, j)
		}
	}
	type edge struct {
		i, j int
		w    float64
	}
	adj := make([][]edge, len(pred))
	for i, p := range pred {
		seen := map[int]bool{}
		for n := range p {
			for _, j := range owner[n] {
				if !seen[j] {
					seen[j] = true
					adj[i] = append(adj[i], edge{i, j, Jaccard(p, truth[j])})
				}
			}
		}
		if len(p) == 0 {
			for _, j := range emptyT {
				adj[i] = append(adj[i], edge{i, j, 1})
			}
		}
	}
	compP := make([]int, len(pred))
	compT := make([]int, len(truth))
	for i := range compP {
		compP[i] = -1
	}
	for j := range compT {
		compT[j] = -1
	}
	byT := make([][]edge, len(truth))
	for i := range adj {
		for _, e := range adj[i] {
			byT[e.j] = append(byT[e.j], e)
		}
	}
	total := 0.0
	nc := 0
	for i0 := range pred {
		if compP[i0] >= 0 || len(adj[i0]) == 0 {
			continue
		}
		var ps, ts []int
		stack := []int{i0}
		compP[i0] = nc
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ps = append(ps, i)
			for _, e := range adj[i] {
				if compT[e.j] < 0 {
					compT[e.j] = nc
					ts = append(ts, e.j)
					for _, f := range byT[e.j] {
						if compP[f.i] < 0 {
							compP[f.i] = nc
							stack = append(stack, f.i)
						}
					}
				}
			}
		}
		nc++
		w := make([][]float64, len(ps))
		ti := map[int]int{}
		for k, j := range ts {
			ti[j] = k
		}
		for a, i := range ps {
			w[a] = make([]float64, len(ts))
			for _, e := range adj[i] {
				w[a][ti[e.j]] = e.w
			}
		}
		total += maxAssignment(w)
	}
	return NewPRF(total, len(pred), len(truth))
}

// maxAssignment returns the maximum total weight of a one-to-one assignment of rows to
// columns (Hungarian algorithm, O(n³) on the padded square matrix).
func maxAssignment(w [][]float64) float64 {
	rows := len(w)
	if rows == 0 {
		return 0
	}
	cols := len(w[0])
	n := max(rows, cols)
	cost := func(i, j int) float64 {
		if i < rows && j < cols {
			return 1 - w[i][j]
		}
		return 1
	}
	u := make([]float64, n+1)
	v := make([]float64, n+1)
	p := make([]int, n+1)
	way := make([]int, n+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		minv := make([]float64, n+1)
		used := make([]bool, n+1)
		for j := range minv {
			minv[j] = math.Inf(1)
		}
		for {
			used[j0] = true
			i0 := p[j0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= n; j++ {
				if used[j] {
					continue
				}
				cur := cost(i0-1, j-1) - u[i0] - v[j]
				if cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= n; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
			if j0 == 0 {
				break
			}
		}
	}
	total := 0.0
	for j := 1; j <= n; j++ {
		if i := p[j]; i >= 1 && i <= rows && j <= cols {
			total += w[i-1][j-1]
		}
	}
	return total
}
