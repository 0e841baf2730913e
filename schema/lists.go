package schema

import (
	"slices"
	"strings"
	"unicode"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Lists in one text. A cell often lists several values of one attribute: "Jon Stewart
// & Ben Karlin & David Javerbaum", "fantasy, young adult". Each is a value of its own
// (a person, a tag), so the feature becomes multi-valued. The same separators also sit
// inside single values ("War and Peace", "Dickens, Charles", "Simon & Schuster"), so a
// separator splits a feature only on evidence, counted over its distinct values:
//
//   - it is not a template: not found exactly once in (almost) every value (that is a
//     composite leaf, "Dickens, Charles", left to the composite splitter);
//   - the pieces look like the values that hold no separator: about as many words,
//     none starting with a lower-case function word ("Harry Potter and the Sorcerer's
//     Stone" gives "the Sorcerer's Stone"), and none without a letter when those values
//     are words ("The Lord of the Rings, #1-3" is a series and its range);
//   - the pieces recur: a piece is the whole value of another record or a piece of
//     another list; or lists of three and more are seen.
//
// Bracket groups and dates are never cut inside ("2 Jan, 2008").

// listSeparators are the separators of lists tried, in order.
var listSeparators = []string{" & ", "; ", ", ", " and "}

// Least evidence for a list separator: values holding it; pieces that recur; values
// listing three items or more.
const (
	minListValues = 2
	maxListBad    = 0.1
)

// learnList returns the list separators of a candidate's values, nil when its values
// are single.
func learnList(vals [][]string) []Marker {
	seen := map[string]bool{}
	var distinct []masked
	for _, v := range vals {
		if len(v) != 1 {
			continue // several values already, or none
		}
		k := norm(v[0])
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		distinct = append(distinct, mask(v[0]))
	}
	if len(distinct) < 4 {
		return nil
	}
	var singles []string
	for _, m := range distinct {
		if !holdsAny(m.s, listSeparators) {
			singles = append(singles, m.orig)
		}
	}
	singleSet := map[string]bool{}
	for _, v := range singles {
		singleSet[norm(v)] = true
	}
	var out []Marker
	for _, sep := range listSeparators {
		if listEvidence(distinct, sep, singles, singleSet) {
			out = append(out, Marker{Sep: sep})
		}
	}
	return out
}

func holdsAny(s string, seps []string) bool {
	for _, sep := range seps {
		if strings.Contains(s, sep) {
			return true
		}
	}
	return false
}

// listEvidence weighs a separator over the distinct values (see the comment above).
func listEvidence(distinct []masked, sep string, singles []string, singleSet map[string]bool) bool {
	holding, once, long := 0, 0, 0
	pieceValues := map[string]int{} // piece → values it is a piece of
	var pieces []string
	for _, m := range distinct {
		k := strings.Count(m.s, sep)
		if k == 0 {
			continue
		}
		holding++
		if k == 1 {
			once++
		}
		if k+countOthers(m.s, sep) >= 2 {
			long++
		}
		mine := map[string]bool{}
		for _, p := range cutList(m, []Marker{{Sep: sep}}) {
			pieces = append(pieces, p)
			if n := norm(p); n != "" && !mine[n] {
				mine[n] = true
				pieceValues[n]++
			}
		}
	}
	if holding < minListValues {
		return false
	}
	if float64(once) >= 0.8*float64(len(distinct)) && long == 0 {
		return false // once in (almost) every value: a template, not a list
	}
	// Pieces without a letter where the single values are words ("#1-3" after "The
	// Lord of the Rings, ") are a number or a range that a template put beside the
	// value, not items of a list.
	lettered := 0
	for _, v := range singles {
		if strings.IndexFunc(v, unicode.IsLetter) >= 0 {
			lettered++
		}
	}
	wordsOnly := len(singles) >= 3 && float64(lettered) >= 0.9*float64(len(singles))
	bad := 0
	var pieceWords []int
	for _, p := range pieces {
		words := strings.Fields(p)
		pieceWords = append(pieceWords, len(words))
		if strings.IndexFunc(p, isWordRune) < 0 || len(words) > 0 && lowerFunctionWord(words[0]) ||
			wordsOnly && strings.IndexFunc(p, unicode.IsLetter) < 0 {
			bad++
		}
	}
	if float64(bad) > maxListBad*float64(len(pieces)) {
		return false
	}
	if len(singles) >= 3 {
		var singleWords []int
		for _, v := range singles {
			singleWords = append(singleWords, len(strings.Fields(v)))
		}
		if d := median(pieceWords) - median(singleWords); d > 1 || d < -1 {
			return false // pieces unlike whole values: a phrase ("War and Peace")
		}
	}
	recur := 0
	for n, k := range pieceValues {
		if singleSet[n] || k >= 2 {
			recur++
		}
	}
	return recur >= 2 || long >= 2 || recur >= 1 && long >= 1
}

// countOthers counts the occurrences of the list separators other than sep in s.
func countOthers(s, sep string) int {
	n := 0
	for _, o := range listSeparators {
		if o != sep {
			n += strings.Count(s, o)
		}
	}
	return n
}

// lowerFunctionWord reports whether w is a lower-case function word ("the", "of"): a
// piece starting with one continues a phrase.
func lowerFunctionWord(w string) bool {
	first := []rune(w)[0]
	return unicode.IsLower(first) && textnorm.IsStopWord(strings.ToLower(w))
}

// splitList cuts a value at every list separator of markers outside bracket groups
// and dates, and returns the non-empty pieces.
func splitList(v string, markers []Marker) []string {
	return cutList(mask(v), markers)
}

// cutList cuts a masked value at every occurrence of the separators, leftmost first.
func cutList(m masked, markers []Marker) []string {
	var out []string
	add := func(a, b int) {
		if p := strings.Trim(m.unmask(a, b), edgeTrim); p != "" {
			out = append(out, p)
		}
	}
	start := 0
	for i := 0; i < len(m.s); {
		hit := ""
		for _, mk := range markers {
			if mk.Sep != "" && strings.HasPrefix(m.s[i:], mk.Sep) && len(mk.Sep) > len(hit) {
				hit = mk.Sep
			}
		}
		if hit == "" {
			i++
			continue
		}
		add(start, i)
		i += len(hit)
		start = i
	}
	add(start, len(m.s))
	return slices.Clip(out)
}
