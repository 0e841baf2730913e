package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// The probes section: one row per probe.

func (b *builder) probes() probesView {
	d := b.d
	v := probesView{Section: b.sectionOf(rundir.ProbesFile), RecordsKnown: d.records != nil}
	classOf := map[string]string{}
	if d.wrapper != nil {
		for _, pc := range d.wrapper.Pages {
			classOf[pc.Page] = pc.Class
		}
	}
	kinds := map[string]int{}
	add := func(r probeRow) {
		v.Count++
		kinds[r.Kind]++
		if r.Error != "" {
			v.Failed++
		} else if r.Unanswered != "" {
			v.Unanswered++
		}
		v.Pages += r.Pages
		if len(v.Rows) < maxProbeRows {
			v.Rows = append(v.Rows, r)
		} else {
			v.Hidden++
		}
	}
	switch {
	case d.probes != nil:
		for _, p := range d.probes {
			r := probeRow{N: p.N, Kind: p.Kind, Assignment: assignment(p.Assignment), Terms: strings.Join(p.Terms, " | "),
				Pages: len(p.Pages), Duration: p.Duration.Round(time.Millisecond).String(), Error: clip(p.Error),
				Unanswered: clip(p.Unanswered), Warnings: clip(strings.Join(p.Warnings, "; "))}
			if p.Status != 0 {
				r.Status = strconv.Itoa(p.Status)
			}
			if !p.Navigated && p.Status == 0 {
				r.Status = "in place"
			}
			var cls []string
			n := 0
			for _, pg := range p.Pages {
				if c := classOf[pg.File]; c != "" {
					cls = append(cls, c)
				}
				n += b.recsByPage[pg.File]
			}
			r.Classes = strings.Join(cls, ", ")
			if d.records != nil {
				r.Records = strconv.Itoa(n)
			}
			add(r)
		}
	case d.schema != nil && len(d.schema.Source.Probes) > 0:
		v.FromSchema = true
		v.RecordsKnown = true
		for _, p := range d.schema.Source.Probes {
			add(probeRow{N: p.N, Kind: p.Kind, Assignment: assignment(p.Assignment), Pages: len(p.Files),
				Records: strconv.Itoa(p.Records), Duration: p.Duration.Round(time.Millisecond).String()})
		}
	}
	var ks []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		name := k
		if name == "" {
			name = "(no kind)"
		}
		ks = append(ks, fmt.Sprintf("%d %s", kinds[k], name))
	}
	v.ByKind = strings.Join(ks, ", ")
	v.Collapsed = v.Count > probesOpen
	return v
}

func assignment(m map[string]string) string {
	if len(m) == 0 {
		return "(form defaults)"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+strconv.Quote(m[k]))
	}
	return clip(strings.Join(parts, " "))
}
