package schema

import (
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Keyword boxes over several fields. A search box usually searches more than one
// attribute: the title and the text of a wiki page, the subject and the message of a
// commit. The thesis rule (every result holds the submitted value at feature f) is kept,
// but judged on more trials than the values of f: every word or phrase the probes typed
// into the box, and every value of any feature tried in it. A feature that holds the
// value in all its instances on a result page passes that trial (a snippet showing the
// query); the field maps to the features that pass (at least MinPassedTrials trials
// and MinTrialShare of those where they had instances), and to the features that hold
// the value besides, in at least half of those trials and a tenth of their records on
// average (a title, when the box searches titles and text). A search engine that stems ("command" for "commands")
// is allowed for. The page of the form's defaults is the control, as for single
// features.

// MethodJoint is the Method of a mapping found by joint trials.
const MethodJoint = "joint"

// minJointShare is the least mean share of the results of the passing trials in which
// a feature must hold the value to be mapped beside the features that pass; it must
// hold it in at least half of those trials, too.
const minJointShare = 0.1

// hold records, on a trial, for each of the schema's text features, how many result
// records have a value there (Having) and how many of those hold the trial's value
// (Holding); Held counts the records holding it in any text feature, and BaselineHeld
// says whether every record of the page of the defaults holds it as well.
func (s *Schema) hold(t *Trial, got, baseline []rec) {
	t.Held, t.Holding, t.Having = 0, nil, nil
	for ri := range got {
		any := false
		for fi := range s.Features {
			f := &s.Features[fi]
			if f.Kind != KindText {
				continue
			}
			vals := featureValues(f.Locations, f.Split, &got[ri])
			if len(vals) == 0 {
				continue
			}
			if t.Having == nil {
				t.Having, t.Holding = map[string]int{}, map[string]int{}
			}
			t.Having[f.Key]++
			for _, x := range vals {
				if holds(x, t.Value) {
					t.Holding[f.Key]++
					any = true
					break
				}
			}
		}
		if any {
			t.Held++
		}
	}
	for k, n := range t.Holding {
		if n == 0 {
			delete(t.Holding, k)
		}
	}
	if len(baseline) > 0 {
		all := true
		for ri := range baseline {
			held := false
			for fi := range s.Features {
				f := &s.Features[fi]
				if f.Kind != KindText {
					continue
				}
				for _, x := range featureValues(f.Locations, f.Split, &baseline[ri]) {
					held = held || holds(x, t.Value)
				}
			}
			all = all && held
		}
		t.BaselineHeld = all
	}
}

// holds reports whether the text x holds the value: contains(x, value), or, for a
// value of up to three words, every word of it that is no stop word is a word of x or
// shares its stem (a search engine that stems finds "command" for "commands").
func holds(x, value string) bool {
	if contains(x, value) {
		return true
	}
	words := textnorm.Tokens(value)
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	have := map[string]bool{}
	for _, w := range textnorm.Tokens(x) {
		have[w] = true
	}
	for _, w := range words {
		if textnorm.IsStopWord(w) {
			continue
		}
		if !termLike(w, have) {
			return false
		}
	}
	return true
}

// jointFromLog adds a joint trial (Feature "") for every logged probe that typed a
// word or a phrase (no stop word, three characters or more) into a text field: the
// records of its pages must hold it in one of their text features.
func (s *Schema) jointFromLog(form rundir.Form, rs []rec, probes []rundir.Probe) {
	baseline := baselineOf(probes, rs)
	for _, p := range probes {
		if p.Error != "" || p.Kind == "nonsense" {
			continue
		}
		var got []rec
		for ri := range rs {
			if rs[ri].probe == p.N {
				got = append(got, rs[ri])
			}
		}
		for _, fd := range textFields(form) {
			v := strings.TrimSpace(p.Assignment[fd.Name])
			if k := norm(v); len(k) < 3 || textnorm.IsStopWord(k) || len(strings.Fields(k)) > maxTrialWords {
				continue
			}
			t := Trial{Field: fd.Name, Value: v, Probe: p.N, Records: len(got)}
			if len(got) > 0 {
				s.hold(&t, got, baseline)
			}
			s.Trials = append(s.Trials, t)
		}
	}
}

// decideJointMappings maps the text fields by their joint trials (see above), to the
// features they do not map to already.
func (s *Schema) decideJointMappings(form rundir.Form, o Options) {
	type key struct{ field, value string }
	byValue := map[key]*Trial{}
	var order []key
	for i := range s.Trials {
		t := &s.Trials[i]
		if t.Error != "" {
			continue
		}
		// The same value tried for several features is one submission: one trial.
		k := key{t.Field, norm(t.Value)}
		if byValue[k] == nil {
			byValue[k] = t
			order = append(order, k)
		}
	}
	byName := map[string]rundir.Field{}
	for _, fd := range form.Fields {
		byName[fd.Name] = fd
	}
	perField := map[string][]*Trial{}
	var fields []string
	for _, k := range order {
		if perField[k.field] == nil {
			fields = append(fields, k.field)
		}
		perField[k.field] = append(perField[k.field], byValue[k])
	}
	for _, field := range fields {
		trials := perField[field]
		// The thesis rule per feature, on every trial of the field.
		var pass []string
		passed := map[string]int{}
		for fi := range s.Features {
			f := &s.Features[fi]
			if f.Kind != KindText {
				continue
			}
			tried := 0
			low := s.lowInfo[f.Key]
			for _, t := range trials {
				switch {
				case t.Having[f.Key] > 0:
					tried++
					of := t.Having[f.Key]
					if low {
						of = t.Records // low information: every record must hold it there
					}
					if !t.BaselineHeld && float64(t.Holding[f.Key]) >= o.InstanceMatchShare*float64(of) {
						passed[f.Key]++
					}
				case t.Feature == f.Key:
					tried++ // its own value did not come back at it: the thesis's error page
				}
			}
			need, share := o.MinPassedTrials, o.MinTrialShare
			if low {
				need, share = max(need, min(o.Trials, tried)), 1
			}
			if n := passed[f.Key]; n >= need && float64(n) >= share*float64(tried) {
				pass = append(pass, f.Key)
			}
		}
		if len(pass) == 0 {
			continue
		}
		// The features holding the values besides, in the trials the others passed: the
		// mean share of the result records holding it there.
		share, in, passing := map[string]float64{}, map[string]int{}, 0
		for _, t := range trials {
			ok := false
			for _, f := range pass {
				ok = ok || t.Having[f] > 0 && !t.BaselineHeld && float64(t.Holding[f]) >= o.InstanceMatchShare*float64(t.Having[f])
			}
			if !ok || t.Records == 0 {
				continue
			}
			passing++
			for f, n := range t.Holding {
				share[f] += float64(n) / float64(t.Records)
				in[f]++
			}
		}
		joint := slices.Clone(pass)
		for f, sum := range share {
			if !slices.Contains(joint, f) && sum >= minJointShare*float64(passing) && 2*in[f] >= passing {
				joint = append(joint, f)
			}
		}
		slices.SortFunc(joint, func(a, b string) int { return s.featureIndex(a) - s.featureIndex(b) })
		fd := byName[field]
		for _, f := range joint {
			if s.mapped(field, f) {
				continue
			}
			// Score: the share of its trials a passing feature passed; for one mapped
			// besides, the mean share of the records holding the value there.
			score, evidence := share[f]/float64(passing), passing
			if slices.Contains(pass, f) {
				evidence = 0
				for _, t := range trials {
					if t.Having[f] > 0 || t.Feature == f {
						evidence++
					}
				}
				score = float64(passed[f]) / float64(max(evidence, 1))
			}
			s.Mapping = append(s.Mapping, Mapping{
				Field: field, FieldLabel: cleanLabel(fd.Label), FieldType: fieldType(fd), Feature: f,
				Method: MethodJoint, Relation: RelContains, Score: round3(score), Evidence: evidence,
			})
		}
	}
}

// featureIndex returns the position of the feature with the key in the schema.
func (s *Schema) featureIndex(key string) int {
	for i := range s.Features {
		if s.Features[i].Key == key {
			return i
		}
	}
	return len(s.Features)
}
