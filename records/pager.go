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

// maxPagerWord is the length of the longest pager word.
var maxPagerWord = func() int {
	n := 0
	for w := range pagerWords {
		n = max(n, len(w))
	}
	return n
}()

// pagerText reports whether a text is that of a pager item: a single page number, a
// next/previous-like word, or only arrows and ellipses (no letter, no digit: « ‹ … › »,
// ←, →).
func pagerText(s string) bool {
	// the common case, a record's text: ASCII with a letter and more bytes other than
	// white space than the longest pager word, decided without the copies below
	n, letter := 0, false
	for i := 0; i < len(s) && n >= 0; i++ {
		switch c := s[i]; {
		case c >= 0x80:
			n = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
		default:
			n++
			letter = letter || 'a' <= c|0x20 && c|0x20 <= 'z'
		}
	}
	if letter && n > maxPagerWord {
		return false
	}
	return pagerTextNormalised(s)
}

// pagerTextNormalised is pagerText's definition, on the text normalised (spaces
// collapsed, lower case): a number, a step word, or no letter or digit at all.
func pagerTextNormalised(s string) bool {
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
