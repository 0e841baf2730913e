package records

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Record-level evaluation shared by the acceptance tests.
//
// overlapScore is the NEXT-EVAL measure (Kim, Kim, Jeong, arXiv 2505.17125; the
// authors' evaluate.ts): every record is the set of text nodes below its node(s);
// predicted and true records are matched one to one maximising the total Jaccard
// overlap (Hungarian algorithm); P = total overlap / #predicted, R = total overlap /
// #true. Averaged per page, as the paper does.

type prf struct{ P, R, F float64 }

func (m prf) String() string { return fmt.Sprintf("P=%.3f R=%.3f F1=%.3f", m.P, m.R, m.F) }

func makePRF(total float64, predicted, truth int) prf {
	switch {
	case predicted == 0 && truth == 0:
		return prf{1, 1, 1}
	case predicted == 0 || truth == 0:
		return prf{}
	}
	p := total / float64(predicted)
	r := total / float64(truth)
	f := 0.0
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return prf{p, r, f}
}

// textNodes returns the non-blank text nodes below the given nodes (script, style and
// the like excluded).
func textNodes(nodes []*html.Node) map[*html.Node]bool {
	out := map[*html.Node]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template:
				return
			}
		}
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			out[n] = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return out
}

// resolveRecords turns records given as lists of absolute XPaths into text-node sets.
func resolveRecords(doc *html.Node, recs [][]string) ([]map[*html.Node]bool, error) {
	out := make([]map[*html.Node]bool, 0, len(recs))
	for _, r := range recs {
		var nodes []*html.Node
		for _, xp := range r {
			n, err := htmlquery.Query(doc, xp)
			if err != nil {
				return nil, fmt.Errorf("xpath %s: %w", xp, err)
			}
			if n == nil {
				return nil, fmt.Errorf("xpath %s selects nothing", xp)
			}
			nodes = append(nodes, n)
		}
		out = append(out, textNodes(nodes))
	}
	return out, nil
}

func jaccardSets(a, b map[*html.Node]bool) float64 {
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

// overlapScore computes the NEXT-EVAL record measure for one page.
func overlapScore(pred, truth []map[*html.Node]bool) prf {
	// Sparse overlap graph, solved per connected component.
	owner := map[*html.Node][]int{}
	for j, t := range truth {
		for n := range t {
			owner[n] = append(owner[n], j)
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
					adj[i] = append(adj[i], edge{i, j, jaccardSets(p, truth[j])})
				}
			}
		}
	}
	// components
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
	return makePRF(total, len(pred), len(truth))
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
	// cost = 1 - w, padded with 1 (zero weight)
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

// exactScore counts predicted records whose XPath set equals a true record's.
func exactScore(pred, truth [][]string) prf {
	key := func(r []string) string {
		s := slices.Clone(r)
		slices.Sort(s)
		return strings.Join(s, "|")
	}
	want := map[string]int{}
	for _, r := range truth {
		want[key(r)]++
	}
	hit := 0
	for _, r := range pred {
		if k := key(r); want[k] > 0 {
			want[k]--
			hit++
		}
	}
	return makePRF(float64(hit), len(pred), len(truth))
}
