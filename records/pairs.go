package records

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// navNameValue is the reason of a list of name–value pairs (nameValueList). Such a
// list counts as navigation (navigational): its words are left out of tf-idf, like
// those of a picker's controls, so that they do not become the page's signifiers and
// draw the relevance to the block that holds them.
const navNameValue = "name-value pairs"

// nameValueList reports a list of name–value pairs: at least 80 % of the items hold
// exactly two texts, a name of at most labelMaxTokens tokens without a digit followed
// by its value, and nothing else: no link, no image, no checkbox or radio button. The
// items of a description list are such groups (HTML §4.4.9, the dl element: "name-value
// groups"); a list of them that stands apart from the records (pairFields) describes
// one thing or offers choices (today, next weekend, each with its dates), while a record
// of a response names an entity and leads to it or shows it. The rows and cells of a
// table and the terms of a dl are left alone: a table of two columns is a list of
// records.
func nameValueList(p *page, l *list) bool {
	if len(l.members) < 2 {
		return false
	}
	switch p.elems[l.members[0]].tag {
	case "tr", "td", "th", "dt", "dd":
		return false
	}
	return mostly(p, l, nameValueItem)
}

// nameValueItem reports whether item m is a name–value pair (see nameValueList).
func nameValueItem(p *page, m int32) bool {
	e := &p.elems[m]
	var texts []string
	for li := e.leafStart; li < e.leafEnd; li++ {
		lf := &p.leaves[li]
		if lf.n.Type == html.ElementNode {
			return false // an image
		}
		if lf.text == "" {
			continue
		}
		if inLink(p, lf.elem, m) {
			return false
		}
		texts = append(texts, lf.text)
	}
	if len(texts) != 2 || hasChoiceControl(p, m) {
		return false
	}
	name := texts[0]
	return len(textnorm.Tokens(name)) <= labelMaxTokens && !strings.ContainsFunc(name, unicode.IsDigit)
}

// pairFieldsItems is the least number of items of a list of records: a list of pairs
// inside an item of such a list is a record's fields.
const pairFieldsItems = 3

// pairFields clears the name-value flag of the lists that are the fields of records:
// those inside an item of another candidate list of pairFieldsItems items or more (the
// scores of a review by service, atmosphere and cuisine; the dates of a booking). The
// records' own pattern holds such fields, and their words are the records' words. A
// list of pairs that stands apart describes the page or offers its choices (a tray of
// suggested dates above the results).
func pairFields(p *page, lists []list) {
	inItem := map[int32]bool{}
	for k := range lists {
		if len(lists[k].members) >= pairFieldsItems {
			for _, m := range lists[k].members {
				inItem[m] = true
			}
		}
	}
	for k := range lists {
		if lists[k].nav != navNameValue {
			continue
		}
		for a := lists[k].parent; a >= 0; a = p.elems[a].parent {
			if inItem[a] {
				lists[k].nav = ""
				break
			}
		}
	}
}

// queryRecords clears the name-value and paragraph flags of the lists whose items
// mostly hold a query term once the page's signifiers come from the query (source
// "query" or "union"): on a response page, pairs or paragraphs that name what was
// searched for are the records (the streets of a postcode lookup, each with its code;
// quotations of the author searched for), while a tray of choices or a page builder's
// text does not echo the query item by item. The tokens left out of tf-idf are
// flagged again.
func queryRecords(s *sample, source string) {
	if source != "query" && source != "union" {
		return
	}
	p := s.p
	changed := false
	for k := range s.lists {
		l := &s.lists[k]
		if l.nav != navNameValue && l.nav != navParagraphs {
			continue
		}
		held := 0
		for _, m := range l.members {
			if p.nsig(m) > 0 {
				held++
			}
		}
		if 2*held >= len(l.members) {
			l.nav = ""
			changed = true
		}
	}
	if changed {
		markNoise(s)
	}
}

// genericPairs clears the name-value flag of the lists whose names are specific to
// their page: a mean specificity of the names' words of at least specificMin, with
// document frequencies over docs pages counted on all words: df for the pages where a
// word counts for tf-idf, dfNoise for those where it occurs only as navigation (the
// flag left the pairs' own words out of tf-idf). It returns the words of the lists it
// cleared. A tray of
// choices or a summary names things every page names (today, this weekend, price,
// size); a list of records names what this page alone holds (the titles of a search,
// each with its year). Without a corpus of two pages or more nothing tells them apart,
// and the list is left to the other rules. The tokens left out of tf-idf are flagged
// again.
func genericPairs(s *sample, df, dfNoise map[string]int, docs int) map[string]bool {
	p := s.p
	var cleared map[string]bool
	for k := range s.lists {
		l := &s.lists[k]
		if l.nav != navNameValue {
			continue
		}
		var sum float64
		n := 0
		for _, m := range l.members {
			lf := firstLeaf(p, m)
			if lf == nil {
				continue
			}
			name := lf.elem
			for _, t := range p.toks[p.elems[name].tokStart:p.elems[name].tokEnd] {
				if weakToken(t) {
					continue
				}
				n++
				if d := df[t] + dfNoise[t]; d > 0 && docs > 1 {
					sum += math.Log(float64(docs)/float64(d)) / math.Log(float64(docs))
				}
			}
		}
		if docs < 2 || n == 0 || sum >= pairNamesSpecific*float64(n) {
			l.nav = ""
			if cleared == nil {
				cleared = map[string]bool{}
			}
			for _, m := range l.members {
				for _, t := range p.toks[p.elems[m].tokStart:p.elems[m].tokEnd] {
					cleared[t] = true
				}
			}
		}
	}
	if cleared != nil {
		markNoise(s)
	}
	return cleared
}

// pairNamesSpecific is the mean specificity of their names' words from which
// name–value pairs are records.
const pairNamesSpecific = 0.67

// firstLeaf returns the first text leaf of element m, or nil.
func firstLeaf(p *page, m int32) *leaf {
	e := &p.elems[m]
	for li := e.leafStart; li < e.leafEnd; li++ {
		if lf := &p.leaves[li]; lf.text != "" {
			return lf
		}
	}
	return nil
}
