package records

import (
	"fmt"
	"slices"
	"strings"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// Record-level helpers of the acceptance tests; the NEXT-EVAL measure itself is in
// records/internal/benchmark.

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

// exactScore counts predicted records whose XPath set equals a true record's.
func exactScore(pred, truth [][]string) benchmark.PRF {
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
	return benchmark.NewPRF(float64(hit), len(pred), len(truth))
}
