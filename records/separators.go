package records

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Separator rows. Lists of records are often cut into groups by a heading row between
// them: the date above a day's entries in a timeline, a letter above the names that
// start with it. Such a row is a sibling of the records and may have their tag (a tr
// among trs), so the record pattern matches it, but it is no record: it holds one
// short unlinked text where the records hold several fields, and its text sits in
// an element none of the records has. dropSeparators removes such rows from the
// records of a page; a list whose records are all that small keeps them (a list of
// names is no list of headings).

// Separator limits: a separator's one text is at most maxSeparatorRunes long, and it
// is only told apart in a list of at least minSeparatedList records of which most have
// at least minFieldsOfRecords leaves.
const (
	maxSeparatorRunes  = 40
	minSeparatedList   = 4
	minFieldsOfRecords = 3
)

// Blank items. A list item that names nothing and links nowhere (no text, no
// alternative text, no link: a grey loading placeholder, a bare picture) among items
// that have text is an item the page has not filled in, or a decoration. A picture
// with a link or an alternative text stays (an image result without a caption), and
// a list whose items are all blank keeps them.

// dropSeparators returns recs without the separator rows and the blank items of each
// list (the records with the same parent element).
func dropSeparators(recs []Record) []Record {
	lists := map[string][]int{}
	for i, r := range recs {
		lists[parentXPath(r.XPath)] = append(lists[parentXPath(r.XPath)], i)
	}
	drop := map[int]bool{}
	for _, idx := range lists {
		if slices.ContainsFunc(idx, func(i int) bool { return !blankItem(recs[i]) }) {
			for _, i := range idx {
				if blankItem(recs[i]) {
					drop[i] = true
				}
			}
		}
		if len(idx) < minSeparatedList {
			continue
		}
		full := 0
		paths := map[string]bool{} // leaf paths of the records with several leaves
		for _, i := range idx {
			if len(recs[i].Leaves) >= minFieldsOfRecords {
				full++
			}
			if len(recs[i].Leaves) >= 2 {
				for _, l := range recs[i].Leaves {
					paths[l.Path] = true
				}
			}
		}
		if 2*full <= len(idx) {
			continue
		}
		for _, i := range idx {
			if separator(recs[i], paths) {
				drop[i] = true
			}
		}
	}
	if len(drop) == 0 {
		return recs
	}
	out := make([]Record, 0, len(recs)-len(drop))
	for i, r := range recs {
		if !drop[i] {
			out = append(out, r)
		}
	}
	return out
}

// blankItem reports whether r has no leaf with text, alternative text or a link.
func blankItem(r Record) bool {
	return !slices.ContainsFunc(r.Leaves, func(l Leaf) bool { return l.Text != "" || l.Alt != "" || l.Href != "" })
}

// separator reports whether r is a heading row among records whose leaves sit at
// recordPaths: one short text, no link, no image, no extra elements, in an element
// no record has.
func separator(r Record, recordPaths map[string]bool) bool {
	if len(r.Leaves) != 1 || len(r.Extra) > 0 {
		return false
	}
	l := r.Leaves[0]
	return l.Text != "" && l.Href == "" && l.Src == "" && !recordPaths[l.Path] &&
		utf8.RuneCountInString(l.Text) <= maxSeparatorRunes
}

// parentXPath returns the XPath of the parent of the element at the absolute XPath xp.
func parentXPath(xp string) string {
	if i := strings.LastIndexByte(xp, '/'); i > 0 {
		return xp[:i]
	}
	return ""
}
