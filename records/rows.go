package records

import "slices"

// Table rows that carry no tuple of values: besides a single spanning cell
// (spanningRow), a row whose data cells hold nothing but headings (the title of the
// group of rows below it, repeated in every column) and a row whose data cells are all
// empty (a row label with no values).

// nonRecordRow reports whether table row i is no record: a spanning row, a heading
// row (headingRow) or a row without values (emptyRow).
func nonRecordRow(p *page, i int32) bool {
	return spanningRow(p, i) || headingRow(p, i) || emptyRow(p, i)
}

// headingRow reports a row of two data cells (td) or more whose text lies, in every
// cell that holds any, inside heading elements (h1–h6), with no image, followed by a
// row that is not such a row: the cells title the columns' part of the section of rows
// that follows, as a heading opens a section of a document (HTML §4.3.6); a record's
// cells hold its values. A table whose every row is made of headings (titles in h3,
// authors in h4) keeps its rows.
func headingRow(p *page, i int32) bool {
	if !headingCells(p, i) {
		return false
	}
	par := p.elems[i].parent
	if par < 0 {
		return false
	}
	kids := p.elems[par].kids
	for k := slices.Index(kids, i) + 1; k < len(kids); k++ {
		if next := kids[k]; p.elems[next].tag == "tr" {
			return !headingCells(p, next)
		}
	}
	return false
}

// headingCells reports a row of two data cells or more whose text lies, in every cell
// that holds any, inside heading elements, with no image.
func headingCells(p *page, i int32) bool {
	cells, titled := 0, 0
	for _, k := range p.elems[i].kids {
		c := &p.elems[k]
		if c.tag != "td" || c.skipped {
			continue
		}
		cells++
		texts, inHeading := 0, 0
		for li := c.leafStart; li < c.leafEnd; li++ {
			lf := &p.leaves[li]
			if lf.text == "" {
				return false
			}
			texts++
			if headingOf(p, lf.elem, k) >= 0 {
				inHeading++
			}
		}
		if texts > 0 {
			if inHeading < texts {
				return false
			}
			titled++
		}
	}
	return cells >= 2 && titled > 0
}

// emptyRow reports a row with data cells (td), none of which holds a text or an
// image: a row label (th) without values is no tuple of fields.
func emptyRow(p *page, i int32) bool {
	cells := 0
	for _, k := range p.elems[i].kids {
		c := &p.elems[k]
		if c.tag != "td" {
			continue
		}
		cells++
		if !c.skipped && c.leafEnd > c.leafStart {
			return false
		}
	}
	return cells > 0
}
