package records

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Record-level evaluation shared by the acceptance tests.
//
// benchScore is the NEXT-EVAL measure exactly as the authors' code computes it (Kim,
// Kim, Jeong, arXiv 2505.17125; wordbricks/next-eval code/src/script/evaluate.ts,
// utils/mapResponseToFullXPath.ts, utils/getHTMLAndTextMapFromMHTML.ts):
//
//   - the unit is the page's flat text map: one key per element that directly holds a
//     non-blank text node (JavaScript trim), outside script and style; the key is the
//     element's XPath from body (/body[1]/div[2]/…, per-tag indices), so an element
//     with several text nodes is one unit;
//   - a record (a list of XPaths) is the set of keys that start with one of its XPaths,
//     as strings, after /html[1] is removed and [1] added to steps without an index;
//     since every step then ends with "]", that is the keys of the elements and their
//     descendants (…/li[1] does not take …/li[10]);
//   - predicted and true records are matched one to one maximising the total Jaccard
//     overlap (Munkres); P = total / #predicted, R = total / #true, F1 from P and R,
//     per page; the figures are the unweighted means over pages (macro average).
//
// nodeScore is the same matching with text nodes as the unit (an element holding text
// split by inline children counts once in the benchmark, once per text node here). It
// is printed beside the benchmark's.

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

// jsSpace reports the characters JavaScript's String.prototype.trim removes
// (WhiteSpace and LineTerminator of ECMA-262: U+FEFF included, U+0085 not).
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00a0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// benchKeys returns the keys of the benchmark's flat text map of a page, sorted.
func benchKeys(doc *html.Node) []string {
	set := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
			return
		}
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Type == html.ElementNode &&
			strings.TrimFunc(n.Data, jsSpace) != "" {
			set[benchXPath(n.Parent)] = true
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

// benchXPath is the benchmark's XPath of an element: lower-case tags with per-tag
// indices from below the root element ("/" for the root element itself).
func benchXPath(n *html.Node) string {
	xp := absXPath(n)
	if i := strings.IndexByte(xp[1:], '/'); i >= 0 {
		return xp[i+1:]
	}
	return "/"
}

// benchRecords maps records (lists of absolute XPaths) to sets of text-map keys the way
// the benchmark does: /html[1] or /html removed, [1] added to steps without an index,
// then every key that starts with the path.
func benchRecords(keys []string, recs [][]string) []map[string]bool {
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

// benchScore is the NEXT-EVAL score of one page.
func benchScore(doc *html.Node, pred, truth [][]string) prf {
	keys := benchKeys(doc)
	return overlapScore(benchRecords(keys, pred), benchRecords(keys, truth))
}

// nodeScore is the clean variant: text nodes below the records' elements.
func nodeScore(doc *html.Node, pred, truth [][]string) (prf, error) {
	ps, err := resolveRecords(doc, pred)
	if err != nil {
		return prf{}, fmt.Errorf("predicted %w", err)
	}
	ts, err := resolveRecords(doc, truth)
	if err != nil {
		return prf{}, fmt.Errorf("truth %w", err)
	}
	return overlapScore(ps, ts), nil
}

func jaccardSets[K comparable](a, b map[K]bool) float64 {
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

// overlapScore matches predicted and true records one to one maximising the total
// Jaccard overlap of their unit sets and returns P, R and F1 of one page. Records that
// share no unit have overlap 0 (two empty records have overlap 1, as in the
// benchmark), so the assignment is solved per connected component of the overlap graph.
func overlapScore[K comparable](pred, truth []map[K]bool) prf {
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
					adj[i] = append(adj[i], edge{i, j, jaccardSets(p, truth[j])})
				}
			}
		}
		if len(p) == 0 {
			for _, j := range emptyT {
				adj[i] = append(adj[i], edge{i, j, 1})
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

// TestBenchScore checks the emulation of the NEXT-EVAL measure on a small page: the
// text map's unit (elements directly holding text, JavaScript trim), the string-prefix
// mapping of record XPaths, the one-to-one matching and the edge cases.
func TestBenchScore(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><title>t</title></head><body><ul>")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "<li><b>n%d</b> x <i>y</i></li>", i)
	}
	b.WriteString("</ul><p>\u00a0\ufeff </p><p>\u0085</p><script>var a</script></body></html>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	keys := benchKeys(doc)
	// 12 × (li, b, i) + title + the p holding U+0085 (not white space in JavaScript)
	if len(keys) != 38 || !slices.Contains(keys, "/head[1]/title[1]") || !slices.Contains(keys, "/body[1]/p[2]") || slices.Contains(keys, "/body[1]/p[1]") {
		t.Fatalf("keys = %d %v", len(keys), keys)
	}
	li := func(k int) []string { return []string{fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", k)} }
	all := func() [][]string {
		var out [][]string
		for k := 1; k <= 12; k++ {
			out = append(out, li(k))
		}
		return out
	}
	tests := []struct {
		name        string
		pred, truth [][]string
		want        prf
	}{
		{"identical", all(), all(), prf{1, 1, 1}},
		// li[1] is 3 keys (li[10]–li[12] are not below it although their paths extend
		// its string); its <b> alone is 1 of them
		{"inner element", [][]string{{"/html[1]/body[1]/ul[1]/li[1]/b[1]"}}, [][]string{li(1)}, prf{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// li[2] (3 keys) without /html and indices
		{"missing indices", [][]string{{"/html/body/ul/li[2]"}}, [][]string{li(2)}, prf{1, 1, 1}},
		{"half found", all()[:6], all(), prf{1, 0.5, 2.0 / 3}},
		{"two-element record", [][]string{{li(2)[0], li(3)[0]}}, [][]string{li(2), li(3)}, prf{0.5, 0.25, 1.0 / 3}},
		{"nothing predicted", nil, all(), prf{}},
		{"nothing to find", nil, nil, prf{1, 1, 1}},
		{"empty record", [][]string{{"/html[1]/body[1]/p[1]"}}, [][]string{li(2)}, prf{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := benchScore(doc, tc.pred, tc.truth)
			if math.Abs(got.P-tc.want.P) > 1e-9 || math.Abs(got.R-tc.want.R) > 1e-9 || math.Abs(got.F-tc.want.F) > 1e-9 {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
