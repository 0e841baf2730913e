package probe

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Term harvesting: after the planned probes, the prober queries words taken from the
// result pages it got, the iterative keyword selection of Barbosa & Freire (SBBD 2004)
// and Ntoulas, Zerfos & Cho (JCDL 2005), simplified: a word is worth querying when it
// occurs in the results of several probes (it likely matches several records) but not
// in most (then it belongs to the page template: navigation, footer, column headers).

// KindHarvest marks a probe with a word harvested from earlier result pages.
const KindHarvest = "harvest"

// pageWords returns the distinct folded words of a page's visible text (scripts,
// styles and templates left out).
func pageWords(doc string) map[string]bool {
	words := map[string]bool{}
	z := html.NewTokenizer(strings.NewReader(doc))
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return words
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "template", "select", "option":
				skip++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style", "noscript", "template", "select", "option":
				if skip > 0 {
					skip--
				}
			}
		case html.TextToken:
			if skip == 0 {
				for _, w := range textnorm.Tokens(string(z.Text())) {
					words[w] = true
				}
			}
		}
	}
}

// harvester keeps, for each word, the number of probes whose result pages contain it.
type harvester struct {
	df     map[string]int
	probes int
	used   map[string]bool
}

func newHarvester() *harvester {
	return &harvester{df: map[string]int{}, used: map[string]bool{}}
}

// add counts the words of one probe's result pages.
func (h *harvester) add(pages []Page) {
	if len(pages) == 0 {
		return
	}
	seen := map[string]bool{}
	for _, p := range pages {
		for w := range pageWords(p.HTML) {
			seen[w] = true
		}
	}
	h.probes++
	for w := range seen {
		h.df[w]++
	}
}

// merge adds the counts of another harvester (of one probe).
func (h *harvester) merge(o *harvester) {
	h.probes += o.probes
	for w, df := range o.df {
		h.df[w] += df
	}
}

// use marks query terms already submitted.
func (h *harvester) use(terms ...string) {
	for _, t := range terms {
		for _, w := range textnorm.Tokens(t) {
			h.used[w] = true
		}
		h.used[textnorm.Fold(t)] = true
	}
}

// next returns up to n words to query: not used yet, not stop words or numbers, at
// least 3 letters, in the results of at least 2 probes and of at most half of them
// (more is template), most frequent first (alphabetical among equals).
func (h *harvester) next(n int) []string {
	if h.probes < 2 {
		return nil
	}
	var cands []string
	for w, df := range h.df {
		if df < 2 || 2*df > h.probes || h.used[w] || isStop(w) || uiWords[w] || utf8.RuneCountInString(w) < 3 {
			continue
		}
		if _, err := strconv.Atoi(w); err == nil {
			continue
		}
		cands = append(cands, w)
	}
	slices.SortFunc(cands, func(a, b string) int {
		if c := cmp.Compare(h.df[b], h.df[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(cands) > n {
		cands = cands[:n]
	}
	return cands
}
