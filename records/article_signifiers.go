package records

import (
	"math"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Signifiers of article mode (thesis ch. 2 §3, §5, §6):
//
//   - page: the terms of the page's title, meta descriptions (description, og: and
//     twitter: title and description) and h1 headings, stop words and weak tokens left
//     out. They are what a reader is told the page is about.
//   - tf-idf: the top-k terms of each page by tf × ln(n/df) over the n pages of its
//     layout cluster (FOREST's default; k = 10). Terms found on every page have weight
//     0. Units whose text recurs on another page of the cluster are the template and are
//     removed (Debnath et al.'s and Webstemmer's observation that the template repeats).
//   - feed: the word 3-grams of the feed item's title and description, HTML stripped,
//     "taken as they appear" (SIGFEED, thesis ch. 2 §5): a unit's signifier count is the
//     number of its tokens covered by a 3-gram of the item.
//
// A unit's weight is FOREST's informativeness density: sigWeight = sigGain × J(x, y)
// with x its signifier tokens and y its other tokens (thesis eq. 2.2), so that a body
// unit about the page's subject counts up to (1 + sigGain) times its words.

// sigGain scales the signifier density in a unit's value.
const sigGain = 1.0

// unitTokens returns the folded tokens of every unit (textnorm.Tokens).
func (a *articlePage) unitTokens() [][]string {
	if a.toksByUnit == nil {
		a.toksByUnit = make([][]string, len(a.units))
		for i := range a.units {
			a.toksByUnit[i] = textnorm.Tokens(a.units[i].text)
		}
	}
	return a.toksByUnit
}

// pageSignifiers returns the distinct strong terms of the page's title, meta
// descriptions and h1 headings.
func (a *articlePage) pageSignifiers() []string {
	parts := []string{a.title}
	for _, k := range []string{"description", "og:title", "og:description", "twitter:title", "twitter:description"} {
		parts = append(parts, a.meta[k])
	}
	parts = append(parts, a.h1...)
	seen := map[string]bool{}
	var out []string
	for _, p := range parts {
		for _, t := range textnorm.Tokens(p) {
			if !weakToken(t) && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// weighTerms sets sig and sigWeight of every unit from a set of signifier terms.
func (a *articlePage) weighTerms(terms []string) {
	set := map[string]bool{}
	for _, t := range terms {
		set[t] = true
	}
	for i, toks := range a.unitTokens() {
		x := 0
		for _, t := range toks {
			if set[t] {
				x++
			}
		}
		a.setWeight(i, x, len(toks))
	}
}

func (a *articlePage) setWeight(i, x, n int) {
	u := &a.units[i]
	u.sig = x
	u.sigWeight = 0
	if x > 0 {
		u.sigWeight = sigGain * Jeffreys(float64(x), float64(n-x))
	}
}

// feedGrams returns the word 3-grams of a feed item's title and description (HTML
// stripped); texts of fewer than 3 tokens give one gram of all their tokens.
func feedGrams(title, description string) map[string]bool {
	grams := map[string]bool{}
	for _, s := range []string{title, stripHTML(description)} {
		toks := textnorm.Tokens(s)
		if len(toks) > 0 && len(toks) < 3 {
			grams[strings.Join(toks, " ")] = true
		}
		for i := 0; i+3 <= len(toks); i++ {
			grams[strings.Join(toks[i:i+3], " ")] = true
		}
	}
	return grams
}

// stripHTML returns the text of an HTML fragment (a feed description).
func stripHTML(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return s
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(nodeText(n))
		b.WriteByte(' ')
	}
	return b.String()
}

// weighGrams sets sig and sigWeight of every unit from feed 3-grams: x is the number of
// the unit's tokens covered by a gram of the item. It returns the total x of the page.
func (a *articlePage) weighGrams(grams map[string]bool) int {
	total := 0
	for i, toks := range a.unitTokens() {
		covered := make([]bool, len(toks))
		if len(toks) < 3 && grams[strings.Join(toks, " ")] {
			for k := range covered {
				covered[k] = true
			}
		}
		for k := 0; k+3 <= len(toks); k++ {
			if grams[strings.Join(toks[k:k+3], " ")] {
				covered[k], covered[k+1], covered[k+2] = true, true, true
			}
		}
		x := 0
		for _, c := range covered {
			if c {
				x++
			}
		}
		total += x
		a.setWeight(i, x, len(toks))
	}
	return total
}

// tfidfSignifiers returns the top-k tf-idf terms of each page of a cluster (raw term
// counts over the page's units, idf = ln(n/df)); terms with idf 0 are never chosen.
func tfidfSignifiers(aps []*articlePage, k int) [][]string {
	n := len(aps)
	tf := make([]map[string]int, n)
	df := map[string]int{}
	for i, a := range aps {
		tf[i] = map[string]int{}
		for ui, toks := range a.unitTokens() {
			if a.units[ui].boil {
				continue
			}
			for _, t := range toks {
				if !weakToken(t) {
					tf[i][t]++
				}
			}
		}
		for t := range tf[i] {
			df[t]++
		}
	}
	out := make([][]string, n)
	for i := range aps {
		type tw struct {
			t string
			w float64
		}
		var ws []tw
		for t, c := range tf[i] {
			if w := float64(c) * math.Log(float64(n)/float64(df[t])); w > 0 {
				ws = append(ws, tw{t, w})
			}
		}
		sort.Slice(ws, func(x, y int) bool {
			if ws[x].w != ws[y].w {
				return ws[x].w > ws[y].w
			}
			return ws[x].t < ws[y].t
		})
		for j := 0; j < len(ws) && j < k; j++ {
			out[i] = append(out[i], ws[j].t)
		}
	}
	return out
}

// markTemplate flags the units of each page whose text recurs on another page of the
// cluster.
func markTemplate(aps []*articlePage) {
	pagesOf := map[string]int{}
	keys := make([][]string, len(aps))
	for i, a := range aps {
		seen := map[string]bool{}
		for ui, toks := range a.unitTokens() {
			k := strings.Join(toks, " ")
			keys[i] = append(keys[i], k)
			if k != "" && !seen[k] {
				seen[k] = true
				pagesOf[k]++
			}
			_ = ui
		}
	}
	for i, a := range aps {
		for ui := range a.units {
			if pagesOf[keys[i][ui]] > 1 {
				a.units[ui].template = true
			}
		}
	}
}
