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
	// trial is one row; feature is the mapping's feature it is shown under ("" for the
	// trials that established none). A mapping is judged on the records that come back,
	// so the row counts the records holding the value next to the values that matched:
	// at the trial's feature (Holders), or for a keyword box's joint trial at the
	// mapping's feature (Holding of Having) and else in any text feature (Held).
	trial := func(t schema.Trial, feature string) trialRow {
		r := trialRow{Field: t.Field, Feature: t.Feature, Value: clip(t.Value), Relation: t.Relation, Error: clip(t.Error),
			Probe: t.Probe, Records: t.Records, Instances: t.Instances, Matched: t.Matched, Passed: t.Passed, Baseline: t.Baseline,
			Holding: t.Holders, Of: t.Records}
		if t.Feature == "" {
			r.Joint = true
			r.Holding = t.Held
			if n, ok := t.Having[feature]; ok && feature != "" {
				r.Feature, r.Holding, r.Of = feature, t.Holding[feature], n
			}
		}
		return r
	}
	behind := func(t schema.Trial, m schema.Mapping) bool {
		return t.Field == m.Field && (t.Feature == m.Feature || (t.Feature == "" && m.Method == schema.MethodJoint))
	}
	used := map[int]bool{}
	mapped := map[string]bool{}
	shown := 0
	for _, m := range s.Mapping {
		mapped[m.Field] = true
		r := mappingRow{Field: m.Field, FieldLabel: m.FieldLabel, FieldType: m.FieldType, Feature: m.Feature,
			FeatureLabel: label(m.Feature), Method: m.Method, Relation: m.Relation, Score: conf(m.Score), Evidence: m.Evidence}
		for i, t := range s.Trials {
			if behind(t, m) {
				used[i] = true
				if shown < maxTrialRows {
					r.Trials = append(r.Trials, trial(t, m.Feature))
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
			v.Other = append(v.Other, trial(t, ""))
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
