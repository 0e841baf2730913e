package articleeval

import (
	"math"
	"math/rand/v2"
	"strings"
	"unicode"
)

// Tokens splits s into the benchmark's word tokens: maximal runs of Unicode letters,
// numbers and '_' (Python 3's \w), case kept.
func Tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_')
	})
}

// Shingles returns the multiset of 4-token shingles of s: the n−3 windows of a text of
// n ≥ 4 tokens, one shingle of all tokens when 1 ≤ n ≤ 3, none for no token.
func Shingles(s string) map[string]int {
	toks := Tokens(s)
	m := map[string]int{}
	switch {
	case len(toks) == 0:
	case len(toks) < 4:
		m[strings.Join(toks, "\x00")]++
	default:
		for i := 0; i+4 <= len(toks); i++ {
			m[strings.Join(toks[i:i+4], "\x00")]++
		}
	}
	return m
}

// PageScore is the score of one page.
type PageScore struct {
	// P is the precision, defined (HasP) only when the extraction has a shingle; R the
	// recall.
	P, R  float64
	HasP  bool
	Exact bool // the token lists are equal
}

// ScorePage scores the extracted text got against the truth.
func ScorePage(truth, got string) PageScore {
	st, sg := Shingles(truth), Shingles(got)
	var tp, fp, fn float64
	for k, ct := range st {
		cs := sg[k]
		tp += float64(min(ct, cs))
		fn += float64(max(0, ct-cs))
	}
	for k, cs := range sg {
		fp += float64(max(0, cs-st[k]))
	}
	ps := PageScore{Exact: slicesEqual(Tokens(truth), Tokens(got))}
	if tp+fp > 0 {
		ps.P, ps.HasP = tp/(tp+fp), true
	}
	if tp+fn > 0 {
		ps.R = tp / (tp + fn)
	}
	return ps
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Result is the score of a set of pages.
type Result struct {
	N             int // pages
	Empty         int // pages with no shingle extracted
	P, R, F1, Acc float64
	SDF1          float64 // bootstrap standard deviation of F1 (1,000 resamples, fixed seed)
}

// Aggregate computes the macro P and R over the page scores, F1 = 2PR/(P+R), the accuracy
// and the bootstrap SD of F1.
func Aggregate(scores []PageScore) Result {
	r := aggregate(scores)
	if len(scores) > 1 {
		rng := rand.New(rand.NewPCG(1, 2))
		sample := make([]PageScore, len(scores))
		var s, s2 float64
		const n = 1000
		for range n {
			for i := range sample {
				sample[i] = scores[rng.IntN(len(scores))]
			}
			f := aggregate(sample).F1
			s += f
			s2 += f * f
		}
		mean := s / n
		r.SDF1 = math.Sqrt(math.Max(0, s2/n-mean*mean))
	}
	return r
}

func aggregate(scores []PageScore) Result {
	r := Result{N: len(scores)}
	var sp, sr float64
	np := 0
	exact := 0
	for _, s := range scores {
		if s.HasP {
			sp += s.P
			np++
		} else {
			r.Empty++
		}
		sr += s.R
		if s.Exact {
			exact++
		}
	}
	if np > 0 {
		r.P = sp / float64(np)
	}
	if len(scores) > 0 {
		r.R = sr / float64(len(scores))
		r.Acc = float64(exact) / float64(len(scores))
	}
	if r.P+r.R > 0 {
		r.F1 = 2 * r.P * r.R / (r.P + r.R)
	}
	return r
}
