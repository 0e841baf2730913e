package records

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// The block choice and the body text of article mode.
//
// Every unit has a value: its words when it reads as body text (goodUnit), minus its
// words when it is boilerplate (inside a boilerplate element, or mostly link text), 0
// otherwise. An element's score is the sum of the values of the units below it; the main
// block is the element of highest score, the deepest one among equals. Adding a sibling
// block to the choice pays only if that block holds more body text than boilerplate, so
// the choice stops at the article's own container, and takes in the chunks of an article
// that advertisements split into several blocks.
//
// Signifiers (from the page, tf-idf or the feed item) weigh the body-text units: a unit
// holding signifiers counts more (FOREST's informativeness, thesis eqs. 2.2–2.4), so that
// of two texts of equal length, the one about the page's subject wins.

// unitValue is the value of one unit for the block choice.
func unitValue(u *unit) float64 {
	if u.boil || u.template {
		return -float64(u.words)
	}
	if u.head == 1 {
		return 0 // the headline is not part of the body
	}
	text := float64(u.words - u.links)
	v := text - linkPenalty*float64(u.links)
	if v > 0 && u.words < minGoodWords {
		v *= float64(u.words) / minGoodWords
	}
	return v * (1 + u.sigWeight)
}

// linkPenalty is what a word of link text costs the block holding it.
const linkPenalty = 1.0

// chooseBlock returns the main block of a, or -1 when no element has a positive score.
func chooseBlock(a *articlePage) int32 {
	score := make([]float64, len(a.elems))
	for i := range a.units {
		u := &a.units[i]
		v := unitValue(u)
		if v == 0 {
			continue
		}
		for e := u.owner; e >= 0; e = a.elems[e].parent {
			score[e] += v
		}
	}
	best := int32(-1)
	for i := range a.elems {
		if score[i] <= 0 || a.elems[i].dfs == 0 {
			continue
		}
		if best < 0 || score[i] >= score[best] {
			// pre-order: a descendant with the same score replaces its ancestor
			if best >= 0 && score[i] == score[best] && !a.isAncestor(best, int32(i)) {
				continue
			}
			best = int32(i)
		}
	}
	return best
}

// bodyUnits returns the units of block e that make the article's body, in order:
// body-text units, and between the first and the last of them every unit that is not
// boilerplate, a link list or the headline; before the first and after the last, only
// units that read as sentences.
func bodyUnits(a *articlePage, e int32) []int {
	var in []int
	first, last := -1, -1
	for i := range a.units {
		u := &a.units[i]
		if u.owner < e || u.owner >= a.elems[e].end {
			continue
		}
		if u.boil || u.template || 2*u.links >= u.words || u.head == 1 {
			continue
		}
		in = append(in, i)
		if u.words >= minGoodWords && unitValue(u) > 0 {
			if first < 0 {
				first = len(in) - 1
			}
			last = len(in) - 1
		}
	}
	var out []int
	for k, i := range in {
		u := &a.units[i]
		if k > last && !sentenceLike(u) && !textOwner(a, u) || k < first && !sentenceLike(u) && !textOwner(a, u) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// sentenceLike reports a short unit that reads as a sentence of the text: a few words,
// few links, ending with sentence punctuation.
func sentenceLike(u *unit) bool {
	if u.words < 4 || 5*u.links > u.words {
		return false
	}
	t := strings.TrimSpace(u.text)
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".!?…\"”»'’)", r)
}

// textOwner reports a unit owned by an element meant for running text: a paragraph, a
// list item, a heading below h1, a quotation or preformatted text.
func textOwner(a *articlePage, u *unit) bool {
	switch a.elems[u.owner].n.DataAtom {
	case atom.P, atom.Li, atom.Dd, atom.Dt, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote, atom.Pre:
		return true
	}
	return false
}

// bodyText joins the units as paragraphs.
func bodyText(a *articlePage, units []int) string {
	parts := make([]string, 0, len(units))
	for _, i := range units {
		parts = append(parts, strings.TrimSpace(strings.ReplaceAll(a.units[i].text, " \n ", "\n")))
	}
	return strings.Join(parts, "\n\n")
}

// headline returns the article's title: the first h1 sharing a word with the page's
// title, else og:title, else the <title>.
func (a *articlePage) headline() string {
	tw := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(a.title)) {
		tw[w] = true
	}
	for _, h := range a.h1 {
		for _, w := range strings.Fields(strings.ToLower(h)) {
			if tw[w] && countWords(w) > 0 {
				return h
			}
		}
	}
	if t := a.meta["og:title"]; t != "" {
		return t
	}
	if len(a.h1) == 1 && a.title == "" {
		return a.h1[0]
	}
	return a.title
}
