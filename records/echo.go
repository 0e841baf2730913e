package records

import (
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Error pages and query echoes (thesis ch. 3 §3.2): "our method infers a characteristic
// XPath expression by submitting the form with a nonsense word and tracing its location
// in the DOM of the response page … the nonsense word will usually be repeated in the
// error page". trawl traces every block that echoes the nonsense word and keeps its
// generic location and its phrase ("no results for {q}"). A page is an error page when
// the same location holds the same phrase with its own query in place of {q}; the words
// of the phrase also tell query echoes ("results for dickens") from record text.

// blockOf returns the nearest block-level ancestor (or self) of element e, below body.
func blockOf(p *page, e int32) int32 {
	for c := e; c >= 0; c = p.elems[c].parent {
		if blockTags[p.elems[c].n.DataAtom] {
			return c
		}
	}
	return e
}

// phraseOf returns the tokens of element e joined by spaces, with the first occurrence
// of the token sequence q replaced by "{q}".
func phraseOf(p *page, e int32, q []string) string {
	toks := p.toks[p.elems[e].tokStart:p.elems[e].tokEnd]
	if len(q) > 0 {
		for i := 0; i+len(q) <= len(toks); i++ {
			if slices.Equal(toks[i:i+len(q)], q) {
				parts := append(slices.Clone(toks[:i]), "{q}")
				parts = append(parts, toks[i+len(q):]...)
				return strings.Join(parts, " ")
			}
		}
	}
	return strings.Join(toks, " ")
}

// maxPhraseTokens bounds the phrases kept as error patterns: a block of a whole page
// section that happens to contain the word is no message.
const maxPhraseTokens = 40

// learnErrorPatterns finds where the nonsense-word page s echoes its word.
func learnErrorPatterns(s *sample, pg Page) []ErrorPattern {
	p := s.p
	word := querySequence(pg.Terms)
	if len(word) == 0 {
		return nil
	}
	var out []ErrorPattern
	seen := map[int32]bool{}
	for li := range p.leaves {
		l := &p.leaves[li]
		if !containsAny(p.toks[l.tokStart:l.tokEnd], word) {
			continue
		}
		b := blockOf(p, l.elem)
		if seen[b] || p.ntoks(b) > maxPhraseTokens {
			continue
		}
		seen[b] = true
		steps := xpathSteps(p, b, s.names)
		if len(steps) > 4 {
			steps = steps[len(steps)-4:]
		}
		out = append(out, ErrorPattern{Page: pg.Name, Word: strings.Join(word, " "),
			Path: "//" + strings.Join(steps, "/"), Phrase: phraseOf(p, b, word),
			TypePath: typePath(p, b, s.names), hash: s.types[b]})
	}
	return out
}

func containsAny(toks, set []string) bool {
	for _, t := range toks {
		if slices.Contains(set, t) {
			return true
		}
	}
	return false
}

// matchErrorPattern reports the first error pattern that page s carries: at the
// pattern's location, its phrase with the page's query in place of {q} — the tokens of
// all terms in order, or of one term alone when the page was queried with several.
// A page that also shows its query outside the locations where the nonsense page
// echoed its word is no error page: its pattern is an echo that every page of the form
// carries ("the results of your search for {q} are below"), and the query occurs in
// its results.
func matchErrorPattern(s *sample, terms []string, eps []ErrorPattern) (ErrorPattern, bool) {
	if len(eps) == 0 {
		return ErrorPattern{}, false
	}
	if queryBeyondEchoes(s, terms, eps) {
		return ErrorPattern{}, false
	}
	queries := [][]string{querySequence(terms)}
	if len(terms) > 1 {
		for _, t := range terms {
			queries = append(queries, querySequence([]string{t}))
		}
	}
	for _, ep := range eps {
		bare := strings.Join(strings.Fields(strings.ReplaceAll(ep.Phrase, "{q}", "")), " ")
		for i := range s.p.elems {
			if s.types[i] != ep.hash {
				continue
			}
			for _, q := range queries {
				ph := phraseOf(s.p, int32(i), q)
				if ph == ep.Phrase || (len(q) == 0 && ph == bare) {
					return ep, true
				}
			}
		}
	}
	return ErrorPattern{}, false
}

// queryBeyondEchoes reports whether a token of the page's query occurs in a block of
// s whose type is not the type of an echo block of the nonsense page (eps).
func queryBeyondEchoes(s *sample, terms []string, eps []ErrorPattern) bool {
	q := querySequence(terms)
	if len(q) == 0 {
		return false
	}
	p := s.p
	for li := range p.leaves {
		l := &p.leaves[li]
		if !containsAny(p.toks[l.tokStart:l.tokEnd], q) {
			continue
		}
		h := s.types[blockOf(p, l.elem)]
		if !slices.ContainsFunc(eps, func(ep ErrorPattern) bool { return ep.hash == h }) {
			return true
		}
	}
	return false
}

// querySequence returns the folded tokens of the terms in order, repeats kept: the
// query as a page echoes it ("Absalom, Absalom!" is absalom absalom).
func querySequence(terms []string) []string {
	var out []string
	for _, t := range terms {
		out = append(out, textnorm.Tokens(t)...)
	}
	return out
}

// echoLeaves marks the leaves of p that only echo the query: leaves with a query token
// whose block holds nothing but query tokens, words of the learnt error phrases and stop
// words ("Results for <b>dickens</b>", a breadcrumb "dickens"), in a block whose
// generic location occurs once on the page. A highlighted query word inside record text
// ("Charles <em>Dickens</em>") is no echo: its block holds other words; nor is a record
// field that equals the query: its location repeats with the records.
func echoLeaves(s *sample, terms []string, vocab map[string]bool) map[int32]bool {
	p := s.p
	q := allQueryTokens(terms)
	if len(q) == 0 {
		return nil
	}
	typeCount := map[uint64]int{}
	for _, h := range s.types {
		typeCount[h]++
	}
	echo := map[int32]bool{}
	verdict := map[int32]bool{}
	for li := range p.leaves {
		l := &p.leaves[li]
		if !containsAny(p.toks[l.tokStart:l.tokEnd], q) {
			continue
		}
		b := blockOf(p, l.elem)
		v, ok := verdict[b]
		if !ok {
			v = typeCount[s.types[b]] == 1
			for _, t := range p.toks[p.elems[b].tokStart:p.elems[b].tokEnd] {
				if !v {
					break
				}
				if !slices.Contains(q, t) && !vocab[t] && !allStopWords[t] {
					v = false
					break
				}
			}
			verdict[b] = v
		}
		if v {
			echo[int32(li)] = true
		}
	}
	return echo
}
