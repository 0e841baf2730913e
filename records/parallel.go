package records

import "slices"

// Records split over parallel tables. A table with a frozen first column is often
// drawn as two tables side by side, the first holding the column that stays in place
// (a rank, a name) and the second the columns that scroll: row k of one and row k of
// the other are one record. When the rows of a selected pattern sit in a table that
// has a sibling table with exactly as many content rows, on (nearly) every sample
// page, each record takes the row of the same index in the sibling table as an extra
// element, and the sibling table's rows are not records of their own.

// parallelAgreement is the share of a pattern's rows that must have a parallel row.
const parallelAgreement = 0.8

// contentRows returns the rows of table t that hold content, in document order,
// leaving out the rows of nested tables.
func contentRows(p *page, t int32) []int32 {
	var rows []int32
	for i := t + 1; i < p.elems[t].end; i++ {
		e := &p.elems[i]
		if e.tag == "table" {
			i = e.end - 1 // a nested table
			continue
		}
		if e.tag == "tr" && !e.skipped && e.leafEnd > e.leafStart {
			rows = append(rows, i)
		}
	}
	return rows
}

// tableOf returns the nearest table ancestor of row r, or -1.
func tableOf(p *page, r int32) int32 {
	for a := p.elems[r].parent; a >= 0; a = p.elems[a].parent {
		if p.elems[a].tag == "table" {
			return a
		}
	}
	return -1
}

// parallelRow returns the row of the same index as row r in the one sibling table of
// r's table that has as many content rows, or -1.
func parallelRow(p *page, r int32) int32 {
	t := tableOf(p, r)
	if t < 0 || p.elems[t].parent < 0 {
		return -1
	}
	rows := contentRows(p, t)
	k := slices.Index(rows, r)
	if k < 0 {
		return -1
	}
	found := int32(-1)
	for _, sib := range p.kids(p.elems[t].parent) {
		if sib == t || p.elems[sib].tag != "table" || p.elems[sib].skipped {
			continue
		}
		if other := contentRows(p, sib); len(other) == len(rows) {
			if found >= 0 {
				return -1 // two candidates: ambiguous
			}
			found = other[k]
		}
	}
	return found
}

// learnParallel reports whether the records of pt (table rows) have parallel rows on
// the sample pages.
func learnParallel(samples []*sample, pt *pattern) bool {
	if pt.tag != "tr" {
		return false
	}
	n, with := 0, 0
	for si, elems := range pt.byPage {
		for _, e := range elems {
			n++
			if parallelRow(samples[si].p, e) >= 0 {
				with++
			}
		}
	}
	return n > 0 && float64(with) >= parallelAgreement*float64(n)
}
