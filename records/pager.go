package records

import (
	"strconv"
	"strings"
	"unicode"
)

// Pagination is page chrome, not records: the numbered links and the step links of a
// pager vary from page to page, so template filters keep them, and a pager often sits
// among the result blocks with their tag and class.

// pagerWords are the texts of the step links of a pager ("next"-like, "previous"-like,
// first and last), compared after case folding.
var pagerWords = map[string]bool{
	"next": true, "next page": true, "previous": true, "previous page": true, "prev": true,
	"first": true, "first page": true, "last": true, "last page": true,
	"older": true, "newer": true, "older posts": true, "newer posts": true,
}

// pagerText reports whether a text is that of a pager item: a single page number, a
// next/previous-like word, or only arrows and ellipses (no letter, no digit: « ‹ … › »,
// ←, →).
func pagerText(s string) bool {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	if s == "" {
		return false
	}
	if _, err := strconv.Atoi(s); err == nil {
		return true
	}
	if pagerWords[s] {
		return true
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// pager reports whether element e is a pager: every text leaf is a pager text
// (pagerText), and they hold a step word, or two page numbers or more in increasing
// order (1 2 3 … 13).
func pager(p *page, e int32) bool {
	last, numbers, word := -1, 0, false
	for li := p.elems[e].leafStart; li < p.elems[e].leafEnd; li++ {
		t := p.leaves[li].text
		if t == "" {
			continue
		}
		if !pagerText(t) {
			return false
		}
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil {
			if n <= last {
				return false
			}
			last = n
			numbers++
			continue
		}
		word = word || pagerWords[strings.ToLower(strings.Join(strings.Fields(t), " "))]
	}
	return word || numbers >= 2
}
