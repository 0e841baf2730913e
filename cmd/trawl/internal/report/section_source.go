package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// The report's first section: the source, the options in effect and the stages.

func (b *builder) source() sourceView {
	d := b.d
	v := sourceView{Section: b.sectionOf(rundir.FormFile, rundir.ProbeRunFile, rundir.AlignRunFile)}
	if d.form != nil {
		v.FormURL, v.Action, v.Method = d.form.PageURL, d.form.Action, d.form.Method
	}
	if d.probeRun != nil {
		if v.FormURL == "" {
			v.FormURL = d.probeRun.URL
		}
		v.Started, v.Finished = fmtTime(d.probeRun.Started), fmtTime(d.probeRun.Finished)
		v.Plan, v.UserAgent, v.RunError = d.probeRun.Plan, d.probeRun.UserAgent, d.probeRun.Error
	}
	if d.schema != nil {
		v.SourceID = d.schema.Source.ID
		if v.FormURL == "" {
			v.FormURL = d.schema.Source.PageURL
		}
		if v.Action == "" {
			v.Action, v.Method = d.schema.Source.Action, d.schema.Source.Method
		}
	}
	if d.graph != nil {
		v.SourceIRI = d.graph.Source
	}
	if v.Started == "" && len(d.probes) > 0 {
		first, last := d.probes[0].Started, d.probes[0].Started.Add(d.probes[0].Duration)
		for _, p := range d.probes {
			if !p.Started.IsZero() && (first.IsZero() || p.Started.Before(first)) {
				first = p.Started
			}
			if e := p.Started.Add(p.Duration); e.After(last) {
				last = e
			}
		}
		v.Started, v.Finished = fmtTime(first), fmtTime(last)
	}
	if d.alignRun != nil {
		v.KB = d.alignRun.KB2
	}
	for _, m := range d.markers {
		v.Stages = append(v.Stages, kv{m.Stage, fmt.Sprintf("%s (%.1f s)", fmtTime(m.Finished), m.Seconds)})
	}
	if d.probeRun != nil && len(d.probeRun.Options) > 0 {
		v.Options = append(v.Options, optionGroup{"probing", rundir.ProbeRunFile, flatten(d.probeRun.Options)})
	}
	if d.wrapper != nil {
		v.Options = append(v.Options, optionGroup{"record isolation (FOREST)", rundir.WrapperFile, flatten(toMap(d.wrapper.Options))})
	}
	if d.schema != nil {
		v.Options = append(v.Options, optionGroup{"output schema and mapping", rundir.SchemaFile, flatten(toMap(d.schema.Options))})
	}
	if d.alignOptions != nil {
		v.Options = append(v.Options, optionGroup{"alignment (PARIS)", rundir.AlignOptionsFile, flatten(d.alignOptions)})
	}
	if u := d.understanding; u != nil {
		v.Options = append(v.Options, optionGroup{"understanding and enrichment", rundir.UnderstandingFile, []kv{
			{"link_threshold", conf(u.LinkThreshold)},
			{"min_relation_confidence", conf(u.MinRelationConfidence)},
			{"min_class_confidence", conf(u.MinClassConfidence)},
		}})
	}
	return v
}

// toMap turns a struct into its JSON object form.
func toMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// flatten lists a JSON object's leaves as key = value, nested keys joined by dots.
func flatten(m map[string]any) []kv {
	var out []kv
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, x[k])
			}
		case nil:
			out = append(out, kv{prefix, "null"})
		case string:
			out = append(out, kv{prefix, clip(x)})
		default:
			b, _ := json.Marshal(x)
			out = append(out, kv{prefix, clip(string(b))})
		}
	}
	walk("", m)
	return out
}
