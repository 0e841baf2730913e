package report

import (
	"fmt"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// The schema section: the output schema's features.

func (b *builder) schemaSection() schemaView {
	s := b.d.schema
	v := schemaView{Section: b.sectionOf(rundir.SchemaFile)}
	if s == nil {
		return v
	}
	v.Known = true
	v.Stats = fmt.Sprintf("%d features from %d candidates; %d records on %d pages, %d leaves", len(s.Features),
		s.Stats.Candidates, s.Stats.Records, s.Stats.Pages, s.Stats.Leaves)
	for _, f := range s.Features {
		r := featureRow{Name: f.Name, Label: f.Label, LabelSource: f.LabelSource, Kind: f.Kind, Type: string(f.Type),
			Records: f.Records, Distinct: f.Distinct, Pages: f.Pages, Samples: clipAll(f.Samples, 4), Multi: f.Multi}
		if f.TypeShare > 0 && f.TypeShare < 1 {
			r.Type += fmt.Sprintf(" (%.0f %%)", 100*f.TypeShare)
		}
		if f.Currency != "" {
			r.Type += " " + f.Currency
		}
		var ps []string
		for _, l := range f.Locations {
			p := l.Path
			if l.Nth > 0 {
				p += fmt.Sprintf("[%d]", l.Nth)
			}
			if l.Attr != "" {
				p += "/@" + l.Attr
			}
			ps = append(ps, p)
		}
		if len(f.Split) > 0 {
			ps = append(ps, fmt.Sprintf("(split: %s)", f.Split[len(f.Split)-1].Segment))
		}
		r.Paths = strings.Join(ps, " | ")
		v.Features = append(v.Features, r)
	}
	for _, dr := range s.Dropped {
		v.Dropped = append(v.Dropped, droppedRow{Key: dr.Key, Reason: dr.Reason, Records: dr.Records, Samples: clipAll(dr.Samples, 3)})
	}
	for _, l := range s.Volatile {
		v.Volatile = append(v.Volatile, l.Path)
	}
	return v
}
