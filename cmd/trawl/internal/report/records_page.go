package report

import (
	"slices"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

// severalRecords is the number of records from which a page shows the record list well;
// a records screenshot prefers the first page (in probe order) that has that many.
const severalRecords = 3

// RecordsPage is a result page with records: the report outlines the first of
// RecordsPages, and the records screenshot shows it.
type RecordsPage struct {
	File  string // relative to the run directory, e.g. pages/0001-1.html
	URL   string // "" when no probe lists the page
	Probe int    // the probe's number; 0 when no probe lists the page
	// Records holds each record's XPath followed by its Extra XPaths, in records.jsonl
	// order.
	Records [][]string
}

// RecordsPages groups the records by page and orders the pages for a screenshot: first
// the pages with at least severalRecords records, in probe order (pages of one probe in
// their order, then pages no probe lists, in records.jsonl order); then the others, those
// with more records first.
func RecordsPages(probes []probe.Probe, recs []records.Record) []RecordsPage {
	byFile := map[string]*RecordsPage{}
	var order []string
	for _, r := range recs {
		pg := byFile[r.Page]
		if pg == nil {
			pg = &RecordsPage{File: r.Page}
			byFile[r.Page] = pg
			order = append(order, r.Page)
		}
		pg.Records = append(pg.Records, append([]string{r.XPath}, r.Extra...))
	}
	var out []RecordsPage
	seen := map[string]bool{}
	for _, p := range probes {
		for _, ref := range p.Pages {
			if pg := byFile[ref.File]; pg != nil && !seen[ref.File] {
				seen[ref.File] = true
				pg.URL, pg.Probe = ref.URL, p.N
				out = append(out, *pg)
			}
		}
	}
	for _, f := range order {
		if !seen[f] {
			out = append(out, *byFile[f])
		}
	}
	slices.SortStableFunc(out, func(a, b RecordsPage) int {
		aMany, bMany := len(a.Records) >= severalRecords, len(b.Records) >= severalRecords
		switch {
		case aMany && bMany:
			return 0
		case aMany:
			return -1
		case bMany:
			return 1
		}
		return len(b.Records) - len(a.Records)
	})
	return out
}
