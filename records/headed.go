package records

import (
	"strings"
	"unicode"
)

// Rows of a table with column headers. HTML marks a data table by its header cells: a
// th in the table's head row labels the column below it ("the th element represents
// a cell that is a header for a group of cells", HTML §4.9.10; WCAG technique H51),
// and a layout table has none. Each body row of such a table is one tuple of the
// columns' values, a record, whatever the relevance of its words: a second table of
// the page (a price table beside the main listing) holds no signifier more often than
// not.

// headedRowsMin is the least number of body rows of a headed table.
const headedRowsMin = 2

// headedRows reports whether the elements of pt are the body rows of tables with
// column headers on every page of pt: table rows of two cells or more, as many as the
// header cells (th) of the table's head row (thead, or a first row of th only), at
// least headedRowsMin of them, and each with a cell that holds a letter (the rows of a
// calendar hold day numbers only).
func headedRows(samples []*sample, pt *pattern) bool {
	if pt.tag != "tr" || len(pt.byPage) == 0 {
		return false
	}
	for si, elems := range pt.byPage {
		p := samples[si].p
		if len(elems) < headedRowsMin {
			return false
		}
		for _, r := range elems {
			cells := rowCells(p, r)
			if cells < 2 || cells != headerCells(p, r) || !rowHasWord(p, r) {
				return false
			}
		}
	}
	return true
}

// rowCells counts the cells (td, th) of table row r; -1 when one spans columns.
func rowCells(p *page, r int32) int {
	n := 0
	for _, k := range p.elems[r].kids {
		c := &p.elems[k]
		if c.tag != "td" && c.tag != "th" {
			continue
		}
		if s := strings.TrimSpace(attr(c.n, "colspan")); s != "" && s != "1" {
			return -1
		}
		n++
	}
	return n
}

// headerCells returns the number of header cells of the table of body row r: the th
// cells of the first row of the table's thead, or of its first row when that row holds
// th cells only and is not r; 0 when it has none.
func headerCells(p *page, r int32) int {
	sec := p.elems[r].parent
	if sec < 0 {
		return 0
	}
	table := sec
	if p.elems[sec].tag != "table" {
		table = p.elems[sec].parent
	}
	if table < 0 || p.elems[table].tag != "table" {
		return 0
	}
	var head int32 = -1
	for _, k := range p.elems[table].kids {
		switch p.elems[k].tag {
		case "thead":
			for _, row := range p.elems[k].kids {
				if p.elems[row].tag == "tr" {
					head = row
					break
				}
			}
		case "tbody", "tr":
			if head < 0 {
				first := k
				if p.elems[k].tag == "tbody" {
					first = -1
					for _, row := range p.elems[k].kids {
						if p.elems[row].tag == "tr" {
							first = row
							break
						}
					}
				}
				if first >= 0 && first != r && onlyHeaderCells(p, first) {
					head = first
				}
			}
		}
		if head >= 0 {
			break
		}
	}
	if head < 0 || !onlyHeaderCells(p, head) {
		return 0
	}
	return rowCells(p, head)
}

// onlyHeaderCells reports whether row r has cells and all of them are th.
func onlyHeaderCells(p *page, r int32) bool {
	n := 0
	for _, k := range p.elems[r].kids {
		switch p.elems[k].tag {
		case "th":
			n++
		case "td":
			return false
		}
	}
	return n > 0
}

// rowHasWord reports whether row r holds a text with a letter.
func rowHasWord(p *page, r int32) bool {
	e := &p.elems[r]
	for li := e.leafStart; li < e.leafEnd; li++ {
		if strings.IndexFunc(p.leaves[li].text, unicode.IsLetter) >= 0 {
			return true
		}
	}
	return false
}
