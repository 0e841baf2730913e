package report

import (
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/schema"
)

// The mapping section: which form field maps to which feature, and the trials.

func (b *builder) mapping() mappingView {
	s := b.d.schema
	v := mappingView{Section: b.sectionOf(rundir.SchemaFile)}
	if s == nil {
		return v
	}
	v.Known = true
	label := func(feature string) string {
		if f := s.Feature(feature); f != nil {
			return f.Label
		}
		return ""
	}
	trial := func(t schema.Trial) trialRow {
		return trialRow{Field: t.Field, Feature: t.Feature, Value: clip(t.Value), Relation: t.Relation, Error: clip(t.Error),
			Probe: t.Probe, Records: t.Records, Instances: t.Instances, Matched: t.Matched, Passed: t.Passed, Baseline: t.Baseline}
	}
	used := map[int]bool{}
	mapped := map[string]bool{}
	shown := 0
	for _, m := range s.Mapping {
		mapped[m.Field] = true
		r := mappingRow{Field: m.Field, FieldLabel: m.FieldLabel, FieldType: m.FieldType, Feature: m.Feature,
			FeatureLabel: label(m.Feature), Method: m.Method, Relation: m.Relation, Score: conf(m.Score), Evidence: m.Evidence}
		for i, t := range s.Trials {
			if t.Field == m.Field && t.Feature == m.Feature {
				used[i] = true
				if shown < maxTrialRows {
					r.Trials = append(r.Trials, trial(t))
					shown++
				} else {
					v.Hidden++
				}
			}
		}
		v.Rows = append(v.Rows, r)
	}
	for i, t := range s.Trials {
		if used[i] {
			continue
		}
		if shown < maxTrialRows {
			v.Other = append(v.Other, trial(t))
			shown++
		} else {
			v.Hidden++
		}
	}
	if f := b.d.form; f != nil {
		for _, fd := range f.Fields {
			if fd.Submit || fd.Type == "hidden" || fd.Name == "" || mapped[fd.Name] {
				continue
			}
			l := fd.Name
			if fd.Label != "" {
				l += " (" + fd.Label + ")"
			}
			v.Unmapped = append(v.Unmapped, l)
		}
	}
	return v
}
