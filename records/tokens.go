package records

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// Class tokens that tell records from their homonyms. An element type keeps the first
// token of the class (the thesis's tolerant form), and a record pattern matches every
// element of that type whose parent has the type path of the records' parent. On pages
// built with a component library that gives every element the same base class first
// (styled-components' Box-sc-…, utility frameworks), many unrelated blocks share one
// type path: a sort bar, a heading block and the result cards are all
// div.Box-sc/…/div.Box-sc, and all match the cards' pattern. The sample pages show the
// difference: the records share further class tokens (the card component's own class)
// that the other matched elements lack. A pattern that matches such homonyms on its
// sample pages requires, wherever it is matched, the tokens of its records that some
// homonym lacks. Records of other lists of the same kind (the rows of a second table,
// the items of a second carousel) carry the tokens and stay matched; patterns whose
// matches on the sample pages are all records learn nothing and match as before.

// classTokens returns the class tokens of n in tolerant form (each token without
// digits, trimmed of '-' and '_' at both ends), without empty or repeated ones.
func classTokens(n *html.Node) []string {
	var out []string
	for _, f := range strings.Fields(attr(n, "class")) {
		if t := tolerantToken(f); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// tolerantToken is one class token in tolerant form.
func tolerantToken(f string) string {
	return strings.Trim(strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, f), "-_")
}

// hasTokens reports whether n carries every class token of toks (tolerant forms).
func hasTokens(n *html.Node, toks []string) bool {
	if len(toks) == 0 {
		return true
	}
	own := classTokens(n)
	for _, t := range toks {
		if !slices.Contains(own, t) {
			return false
		}
	}
	return true
}

// learnTokens returns the class tokens pt's matches must carry: the tokens every
// element of pt carries on every sample page that at least one other element matching
// pt on a sample page lacks (nil when there is no such element, or when the class is
// not a type attribute). They come in the order of the first record's class.
func learnTokens(samples []*sample, sel *selection, pt *pattern) []string {
	if !slices.Contains(sel.names, "class") {
		return nil
	}
	var common []string
	first := true
	for _, si := range slices.Sorted(maps.Keys(pt.byPage)) {
		p := samples[si].p
		for _, m := range pt.byPage[si] {
			toks := classTokens(p.elems[m].n)
			if first {
				common, first = toks, false
				continue
			}
			common = slices.DeleteFunc(common, func(t string) bool { return !slices.Contains(toks, t) })
		}
	}
	if len(common) == 0 {
		return nil
	}
	lacked := map[string]bool{}
	for si, s := range samples {
		p := s.p
		members := map[int32]bool{}
		for _, m := range pt.byPage[si] {
			members[m] = true
		}
		for i := range p.elems {
			e := &p.elems[i]
			if e.skipped || e.leafEnd == e.leafStart || !sel.matches(s, int32(i), pt) || members[int32(i)] {
				continue
			}
			own := classTokens(e.n)
			for _, t := range common {
				if !slices.Contains(own, t) {
					lacked[t] = true
				}
			}
		}
	}
	return slices.DeleteFunc(common, func(t string) bool { return !lacked[t] })
}

// tokenTests returns the XPath tests of the tokens pt requires: for each token, the
// class token its records carry when they all carry the same one (' tok '), or else the
// prefix their tokens share (' pre'), left out when it is shorter than two characters.
func tokenTests(samples []*sample, pt *pattern) []string {
	var out []string
	for _, t := range pt.tokens {
		var raws []string
		for si, elems := range pt.byPage {
			for _, m := range elems {
				for _, f := range strings.Fields(attr(samples[si].p.elems[m].n, "class")) {
					if tolerantToken(f) == t {
						raws = append(raws, f)
						break
					}
				}
			}
		}
		if len(raws) == 0 {
			continue
		}
		pre, same := raws[0], true
		for _, r := range raws[1:] {
			same = same && r == raws[0]
			for !strings.HasPrefix(r, pre) {
				pre = pre[:len(pre)-1]
			}
		}
		switch {
		case same:
			out = append(out, "contains(concat(' ',normalize-space(@class),' '),"+xpathLiteral(" "+pre+" ")+")")
		case len(pre) >= 2:
			out = append(out, "contains(concat(' ',normalize-space(@class)),"+xpathLiteral(" "+pre)+")")
		}
	}
	return out
}
