package records

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Signifiers (thesis ch. 2 §3 and §6): the terms that locate the informative zone of a
// page. On result pages they are the query terms the form was submitted with (ch. 3
// §3.2); when those are weak — stop words, single letters, or terms that do not reappear
// on the page — FOREST's own default is used instead: the top-k tf-idf terms of each page
// over the sample pages.

// SignifierSource says where signifiers come from.
type SignifierSource string

const (
	// SignifiersAuto uses a page's query terms when they are strong on that page and the
	// tf-idf terms otherwise (the default).
	SignifiersAuto SignifierSource = "auto"
	// SignifiersQuery uses only the query terms, weak or not.
	SignifiersQuery SignifierSource = "query"
	// SignifiersTFIDF ignores the query terms and uses the top-k tf-idf terms.
	SignifiersTFIDF SignifierSource = "tfidf"
	// SignifiersUnion uses the strong query terms and the tf-idf terms together.
	SignifiersUnion SignifierSource = "union"
)

// allStopWords holds the stop words of every language textnorm knows.
var allStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range textnorm.Languages() {
		for _, w := range textnorm.StopWords(l) {
			m[w] = true
		}
	}
	return m
}()

// maxStopWord is the length in bytes of the longest stop word: longer tokens need no
// lookup.
var maxStopWord = func() int {
	n := 0
	for w := range allStopWords {
		n = max(n, len(w))
	}
	return n
}()

// weakToken reports tokens that cannot locate records: stop words of any known
// language, single characters, and tokens without a letter that are shorter than 3
// characters.
func weakToken(t string) bool {
	if len(t) < 2 || len(t) <= maxStopWord && allStopWords[t] || utf8.RuneCountInString(t) < 2 {
		return true
	}
	for _, r := range t {
		if r > '9' || r < '0' {
			return false
		}
	}
	return len(t) < 3
}

// queryTokens returns the distinct folded tokens of the query terms that are not weak.
func queryTokens(terms []string) []string {
	var out []string
	for _, t := range terms {
		for _, tok := range textnorm.Tokens(t) {
			if !weakToken(tok) && !slices.Contains(out, tok) {
				out = append(out, tok)
			}
		}
	}
	return out
}

// allQueryTokens returns every folded token of the terms, weak ones included.
func allQueryTokens(terms []string) []string {
	var out []string
	for _, t := range terms {
		for _, tok := range textnorm.Tokens(t) {
			if !slices.Contains(out, tok) {
				out = append(out, tok)
			}
		}
	}
	return out
}

// leavesWith counts the leaves of p, echo leaves excluded, that contain one of toks.
func leavesWith(p *page, toks []string, echo map[int32]bool) int {
	set := map[string]bool{}
	for _, t := range toks {
		set[t] = true
	}
	n := 0
	for li := range p.leaves {
		if echo[int32(li)] {
			continue
		}
		l := &p.leaves[li]
		for _, t := range p.toks[l.tokStart:l.tokEnd] {
			if set[t] {
				n++
				break
			}
		}
	}
	return n
}

// docTerms returns the distinct tokens of p that count for tf-idf: not weak, not in a
// navigation list.
func docTerms(p *page) map[string]bool {
	// weakToken is asked once per distinct token rather than per occurrence
	out := map[string]bool{}
	for k, t := range p.toks {
		if p.noise == nil || !p.noise[k] {
			out[t] = true
		}
	}
	for t := range out {
		if weakToken(t) {
			delete(out, t)
		}
	}
	return out
}

// topTerms returns the top-k terms of p by raw count × ln(n/df), df counted over the n
// pages of the corpus (weak tokens and navigation text excluded); terms in every page
// weigh 0 and are never returned. With a single page the IDF is computed over the
// page's text leaves instead (a term in few leaves is specific), since a constant IDF
// would rank terms by frequency alone.
func topTerms(p *page, df map[string]int, n, k int) []string {
	// weakToken is asked once per distinct token rather than per occurrence
	tf := map[string]int{}
	for i, t := range p.toks {
		if p.noise == nil || !p.noise[i] {
			tf[t]++
		}
	}
	for t := range tf {
		if weakToken(t) {
			delete(tf, t)
		}
	}
	idf := func(t string) float64 {
		if df[t] == 0 {
			return 0
		}
		return math.Log(float64(n) / float64(df[t]))
	}
	if n <= 1 {
		ldf, nl := leafDF(p)
		idf = func(t string) float64 {
			if ldf[t] == 0 {
				return 0
			}
			return math.Log(float64(nl) / float64(ldf[t]))
		}
	}
	type tw struct {
		t string
		w float64
	}
	var ws []tw
	for t, c := range tf {
		if w := float64(c) * idf(t); w > 0 {
			ws = append(ws, tw{t, w})
		}
	}
	slices.SortFunc(ws, func(a, b tw) int {
		if a.w != b.w {
			if a.w > b.w {
				return -1
			}
			return 1
		}
		return strings.Compare(a.t, b.t)
	})
	var out []string
	for j := 0; j < len(ws) && j < k; j++ {
		out = append(out, ws[j].t)
	}
	return out
}

// tfidf returns the top-k tf-idf terms of each page over the pages.
func tfidf(pages []*page, k int) [][]string {
	df := map[string]int{}
	for _, p := range pages {
		for t := range docTerms(p) {
			df[t]++
		}
	}
	out := make([][]string, len(pages))
	for i, p := range pages {
		out[i] = topTerms(p, df, len(pages), k)
	}
	return out
}

// leafDF counts, for each token, the text leaves of p containing it.
func leafDF(p *page) (map[string]int, int) {
	df := map[string]int{}
	nl := 0
	seen := map[string]bool{}
	for _, l := range p.leaves {
		if l.tokEnd == l.tokStart {
			continue
		}
		nl++
		clear(seen)
		for _, t := range p.toks[l.tokStart:l.tokEnd] {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	return df, nl
}

// markSignifiers sets p.sig, the prefix sums of signifier flags over the page's tokens.
// Tokens inside echo leaves never count.
func markSignifiers(p *page, sigs []string, echo map[int32]bool) {
	set := map[string]bool{}
	for _, s := range sigs {
		set[s] = true
	}
	flag := make([]bool, len(p.toks))
	for li := range p.leaves {
		if echo[int32(li)] {
			continue
		}
		l := &p.leaves[li]
		for t := l.tokStart; t < l.tokEnd; t++ {
			flag[t] = set[p.toks[t]]
		}
	}
	p.sig = make([]int32, len(p.toks)+1)
	for i, f := range flag {
		p.sig[i+1] = p.sig[i]
		if f {
			p.sig[i+1]++
		}
	}
}

// specificity returns the summed specificity of the tokens of element e that are not
// weak, and their number. The specificity of a term is ln(n/df) / ln(n) over the n
// pages of the corpus (p.df): 1 for a term found on this page only, 0 for a term found
// on every page or never counted (navigation text). With fewer than two pages in the
// corpus there is none, and the count is 0.
func (p *page) specificity(e int32) (float64, int) {
	if p.docs < 2 {
		return 0, 0
	}
	if p.spec == nil || p.specDocs != p.docs {
		p.tokenSpecificity()
	}
	var sum float64
	n := 0
	for _, w := range p.spec[p.elems[e].tokStart:p.elems[e].tokEnd] {
		if math.IsInf(w, -1) {
			continue // weak
		}
		n++
		if !math.IsNaN(w) {
			sum += w
		}
	}
	return sum, n
}

// tokenSpecificity computes the specificity of every token of p once (-Inf for a
// weak token, NaN for one never counted): the lists' features ask for it of nested
// elements over and over. The terms are the same and are added in the same order as
// when each was looked up, so the sums are the same to the bit.
func (p *page) tokenSpecificity() {
	ln := math.Log(float64(p.docs))
	p.spec = make([]float64, len(p.toks))
	p.specDocs = p.docs
	for i, t := range p.toks {
		if weakToken(t) {
			p.spec[i] = math.Inf(-1)
			continue
		}
		switch d := p.df[t]; {
		case d > 0:
			p.spec[i] = math.Log(float64(p.docs)/float64(d)) / ln
		default:
			p.spec[i] = math.NaN()
		}
	}
}
