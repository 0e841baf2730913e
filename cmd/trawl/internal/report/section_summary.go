package report

import (
	"fmt"
	"strconv"

	"github.com/trawl-dev/trawl/align"
)

// The summary line at the top of the report.

func (b *builder) summary(v *reportView) []summaryItem {
	d := b.d
	item := func(label string, n int, known bool) summaryItem {
		if !known {
			return summaryItem{Label: label, Value: "—"}
		}
		return summaryItem{Label: label, Value: strconv.Itoa(n), Known: true}
	}
	var out []summaryItem
	probes := item("probes", v.Probes.Count, d.probes != nil || v.Probes.FromSchema)
	if v.Probes.Failed > 0 {
		probes.Value += fmt.Sprintf(" (%d failed)", v.Probes.Failed)
	}
	out = append(out, probes, item("result pages", v.Probes.Pages, d.probes != nil || v.Probes.FromSchema))
	out = append(out, item("records", len(d.records), d.records != nil))
	nf := 0
	if d.schema != nil {
		nf = len(d.schema.Features)
	}
	out = append(out, item("features", nf, d.schema != nil))
	fields := map[string]bool{}
	if d.schema != nil {
		for _, m := range d.schema.Mapping {
			fields[m.Field] = true
		}
	}
	out = append(out, item("mapped fields", len(fields), d.schema != nil))
	aligned := 0
	for _, r := range v.Align.Relations {
		if r.Aligned != "" && (r.Status == "" || r.Status == align.RelationAligned) {
			aligned++
		}
	}
	out = append(out, item("aligned relations", aligned, d.understanding != nil || d.alignRun != nil || d.alignment != nil))
	links, known := 0, false
	switch {
	case d.links != nil:
		links, known = len(d.links), true
	case d.alignment != nil:
		links, known = v.Align.LinksAbove, true
	}
	out = append(out, item("sameAs links", links, known))
	facts, known := 0, false
	switch {
	case d.understanding != nil && d.understanding.Enrichment != nil:
		facts, known = d.understanding.Enrichment.Facts, true
	case d.enrichment != nil:
		facts, known = v.Enrich.Facts, true
	}
	out = append(out, item("new facts", facts, known))
	return out
}
