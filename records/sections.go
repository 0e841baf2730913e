package records

import "strings"

// Lists that are parts of a document rather than records: the sections of an article
// or of a page builder's landing page, the entries of an FAQ, paragraphs of running
// text (docs/decisions/2026-11-22-forest-eighth-pass-a.md).

// headingTags are the heading elements of HTML (§4.3.6): each opens a section of the
// document outline.
var headingTags = map[string]bool{"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}

// headingOf returns the heading element (h1–h6) that holds element e, up to and
// including r, or -1.
func headingOf(p *page, e, r int32) int32 {
	for c := e; c >= 0; c = p.elems[c].parent {
		if headingTags[p.elems[c].tag] {
			return c
		}
		if c == r {
			break
		}
	}
	return -1
}

// sectionList reports a list of the parts of a document: at least 80 % of the items
// are titled sections (sectionItem) or questions answered in place (questionItem), and
// there are some of each. In
// the outline of a document a heading opens a section, and the headings below it open
// its subsections; a record of a list has one title at most (a product tile's name, a
// story's headline), and when it is a heading it links to the record's page. Items
// titled by their own heading with headed parts below it, beside the entries of an
// FAQ, are the sections of an article or of a landing page made with a page builder.
func sectionList(p *page, l *list) bool {
	sections, questions := 0, 0
	for _, m := range l.members {
		switch {
		case sectionItem(p, m):
			sections++
		case questionItem(p, m):
			questions++
		}
	}
	// Titled sections alone are left alone: result records may carry a heading that
	// is no link with a headed field below it (a title in h3, its author in h4).
	return sections > 0 && questions > 0 && (sections+questions)*5 >= len(l.members)*4
}

// sectionItem reports whether item m opens with a heading that is no link and holds
// another heading with text after it.
func sectionItem(p *page, m int32) bool {
	lf := firstLeaf(p, m)
	if lf == nil || inLink(p, lf.elem, m) {
		return false
	}
	first := headingOf(p, lf.elem, m)
	if first < 0 {
		return false
	}
	for i := p.elems[first].end; i < p.elems[m].end; i++ {
		if headingTags[p.elems[i].tag] && !p.elems[i].skipped && p.ntoks(i) > 0 {
			return true
		}
	}
	return false
}

// navParagraphs is the reason of a list of paragraphs (paragraphList).
const navParagraphs = "paragraphs"

// paragraphList reports a list of paragraphs: every item holds all its text inside a
// single p element (its wrappers add no text and no image), and some of that text lies
// outside links. Running text cut into blocks by a page builder is prose, whatever
// the tags of the blocks; a record holds its fields in several elements (a title
// beside a description, a price, a date), and an item whose paragraph is one link is a
// link (anchor lists).
func paragraphList(p *page, l *list) bool {
	for _, m := range l.members {
		e := &p.elems[m]
		para, free := int32(-1), false
		for li := e.leafStart; li < e.leafEnd; li++ {
			lf := &p.leaves[li]
			if lf.text == "" {
				return false // an image beside the text: a field of a record
			}
			b := int32(-1)
			for c := lf.elem; c >= 0; c = p.elems[c].parent {
				if p.elems[c].tag == "p" {
					b = c
				}
				if c == m {
					break
				}
			}
			if b < 0 || para >= 0 && b != para {
				return false
			}
			para = b
			free = free || !inLink(p, lf.elem, m)
		}
		if para < 0 || !free {
			return false
		}
	}
	return true
}

// answerProps are the schema.org properties of a Question that hold its answers.
var answerProps = map[string]bool{"acceptedanswer": true, "suggestedanswer": true}

// answeredInPlace reports whether item m is a question answered in place by its
// markup: it carries a schema.org Question's answer (itemprop acceptedAnswer or
// suggestedAnswer, as an FAQ page marks its entries up), and its first text is no
// link. A search result of a Q&A site links to the question's page.
func answeredInPlace(p *page, m int32) bool {
	if lf := firstLeaf(p, m); lf != nil && inLink(p, lf.elem, m) {
		return false
	}
	for i := m; i < p.elems[m].end; i++ {
		for _, tok := range strings.Fields(strings.ToLower(attr(p.elems[i].n, "itemprop"))) {
			if answerProps[tok] {
				return true
			}
		}
	}
	return false
}
