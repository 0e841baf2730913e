package schema

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// Submitter re-submits the form for the input–output mapping (thesis ch. 3 §3.4). The
// values are keyed by field name; fields not listed keep their defaults. It returns the
// records of the first response page, isolated with the source's wrapper; an error page
// or an empty result is no records and no error. An error means the submission itself
// failed (browser, network); such a trial is not counted.
//
// The prober satisfies it through SubmitFunc, composed with the record extractor (the
// pipeline wires them); schema never drives a browser itself.
type Submitter interface {
	Submit(ctx context.Context, values map[string]string) ([]records.Record, error)
}

// SubmitFunc adapts a function to Submitter.
type SubmitFunc func(ctx context.Context, values map[string]string) ([]records.Record, error)

// Submit calls f.
func (f SubmitFunc) Submit(ctx context.Context, values map[string]string) ([]records.Record, error) {
	return f(ctx, values)
}

// contains is the mapping criterion of the thesis: an instance "equals i or contains it
// as a substring", compared in matching form (folded, punctuation as spaces) on word
// boundaries.
func contains(instance, value string) bool {
	a, b := norm(instance), norm(value)
	if a == "" || b == "" {
		return false
	}
	return strings.Contains(" "+a+" ", " "+b+" ")
}

// mapOptions maps selects and radio groups whose option texts (or values) match a
// feature's values, and checks the records of logged option probes.
func (s *Schema) mapOptions(form rundir.Form, rs []rec, probes []rundir.Probe, o Options) {
	baseline := baselineOf(probes, rs)
	for _, fd := range form.Fields {
		if len(fd.Options) == 0 || fd.Submit || fd.Disabled || fd.Type == "hidden" || display(fd) {
			continue
		}
		opts, numeric, textOf := optionSet(fd)
		if len(opts) == 0 {
			continue
		}
		for fi := range s.Features {
			f := &s.Features[fi]
			if f.Type == TypeURL {
				continue
			}
			hit, score := optionOverlap(f, rs, opts)
			m := Mapping{Field: fd.Name, FieldLabel: cleanLabel(fd.Label), FieldType: fieldType(fd), Feature: f.Key, Method: "options", Relation: RelOption, Score: round3(score), Evidence: hit}
			// Numbers match numbers by chance ("10, 25, 50" rows per page and record
			// ids): numeric options map only on the evidence of their probes.
			ok := hit >= 2 && score >= o.OptionMatchShare && !numeric
			tried, byRel := optionTrials(fd, f, rs, probes, textOf, baseline, o)
			rel, passed := RelOption, byRel[RelContains]
			for _, b := range []string{RelMin, RelMax} {
				if n := byRel[b]; n > byRel[RelContains] && n+byRel[RelContains] > passed {
					rel, passed = b, n+byRel[RelContains]
				}
			}
			if tried > 0 && passed >= min(o.MinPassedTrials, tried) && float64(passed) >= o.MinTrialShare*float64(tried) {
				if !ok || float64(passed)/float64(tried) >= score {
					m.Method, m.Relation, m.Score, m.Evidence = "option-probes", rel, round3(float64(passed)/float64(tried)), tried
				}
				ok = true
			}
			if ok {
				s.Mapping = append(s.Mapping, m)
			}
		}
	}
}

// optionSet returns the normal forms of a field's option texts and values (placeholders
// left out), whether every option is a number (a count, a limit, a rating), and each
// option value's text.
func optionSet(fd rundir.Field) (opts map[string]bool, numeric bool, textOf map[string]string) {
	opts, numeric, textOf = map[string]bool{}, true, map[string]string{}
	for _, op := range fd.Options {
		t, _ := Clean(op.Text)
		textOf[op.Value] = t
		if op.Value == "" && !op.Selected {
			continue // a placeholder ("Any", "--")
		}
		if k := norm(t); k != "" {
			opts[k] = true
		}
		if k := norm(op.Value); k != "" {
			opts[k] = true
		}
		if _, _, ok := parseNumber(t); !ok && t != "" {
			numeric = false
		}
	}
	return opts, numeric, textOf
}

// optionOverlap measures the value overlap of a feature and a field's options, in both
// directions: the feature's values are options, or the options are values of the
// feature. It returns the shared values and the larger of the two shares.
func optionOverlap(f *Feature, rs []rec, opts map[string]bool) (hit int, score float64) {
	vals := map[string]bool{}
	for ri := range rs {
		for _, v := range featureValues(f.Locations, f.Split, &rs[ri]) {
			if k := norm(v); k != "" {
				vals[k] = true
			}
		}
	}
	for v := range vals {
		if opts[v] {
			hit++
		}
	}
	if len(vals) > 0 {
		score = max(float64(hit)/float64(len(vals)), float64(hit)/float64(len(opts)))
	}
	return hit, score
}

// optionTrials judges the logged option probes of a field against a feature: the
// records found with an option all carry its text (or, for an ordered feature, all lie
// on one side of its value: a "4 stars and up" radio, a decade). Each option probe is a
// trial, judged like a re-submission, with the page of the defaults as control. It
// returns the trials with instances and the passed ones by relation.
func optionTrials(fd rundir.Field, f *Feature, rs []rec, probes []rundir.Probe, textOf map[string]string, baseline []rec, o Options) (tried int, byRel map[string]int) {
	byRel = map[string]int{}
	for _, p := range probes {
		v, set := p.Assignment[fd.Name]
		if !set || textOf[v] == "" && v == "" || p.Error != "" {
			continue
		}
		want := textOf[v]
		if want == "" {
			want = v
		}
		var got []rec
		for ri := range rs {
			if rs[ri].probe == p.N {
				got = append(got, rs[ri])
			}
		}
		t := Trial{Field: fd.Name, Value: want}
		judge(&t, f, got, o, boundShares(f, others(rs, p.N), want), baseline)
		if _, ordered := orderValue(f, want); !ordered && t.Instances > 0 && !t.Passed {
			// An option whose text is not a number ("1950s") but whose value is.
			t2 := Trial{Field: fd.Name, Value: v}
			judge(&t2, f, got, o, boundShares(f, others(rs, p.N), v), baseline)
			if t2.Relation == RelMin || t2.Relation == RelMax {
				t = t2
			}
		}
		if t.Instances == 0 {
			continue
		}
		tried++
		if t.Passed {
			byRel[t.Relation]++
		}
	}
	return tried, byRel
}

func cleanLabel(s string) string {
	return CleanLabel(s)
}

func fieldType(fd rundir.Field) string {
	if fd.Type != "" {
		return fd.Type
	}
	return fd.Tag
}

// display reports whether the form's classifier took the field for a presentation
// control (sort order, page size): it filters nothing and maps to no feature.
func display(fd rundir.Field) bool {
	return fd.Role == "sort" || fd.Role == "page-size"
}

// textFields returns the form's free-text fields that can be filled.
func textFields(form rundir.Form) []rundir.Field {
	var out []rundir.Field
	for _, fd := range form.Fields {
		if fd.Name == "" || fd.Submit || fd.Disabled || fd.ReadOnly || fd.Type == "hidden" || !fd.IsText() || display(fd) {
			continue
		}
		switch fd.Type {
		case "email", "tel", "url", "password":
			continue
		}
		out = append(out, fd)
	}
	return out
}

// fits reports whether value respects the field's constraints.
func fits(fd rundir.Field, value string) bool {
	if fd.MaxLength > 0 && utf8.RuneCountInString(value) > fd.MaxLength {
		return false
	}
	if fd.MinLength > 0 && utf8.RuneCountInString(value) < fd.MinLength {
		return false
	}
	if fd.Type == "number" {
		if _, _, ok := parseNumber(value); !ok {
			return false
		}
	}
	if fd.Pattern != "" {
		if re, err := regexp.Compile(`^(?:` + fd.Pattern + `)$`); err == nil && !re.MatchString(value) {
			return false
		}
	}
	return true
}

// instance is a value of a feature that can be typed into a field.
type instance struct {
	value string
	share float64 // share of the records whose feature equals or contains it
	safe  bool    // letters, digits, spaces and word punctuation only
}

var querySyntax = regexp.MustCompile(`["():\[\]{}<>=~^*?!|&+\\/;]`)

// maxTrialWords is the most words of a value typed into a field as a trial: a
// snippet or a paragraph is no query.
const maxTrialWords = 8

// instances returns the values of a feature usable as trial values: not stop words, at
// least 3 characters and at most maxTrialWords words, found in at most
// MaxInstanceShare of the records; query-syntax-
// safe ones first, then the rarest, then those of 1–5 words, then the longest.
func instances(f *Feature, rs []rec, o Options) []instance {
	var all []string
	perRec := make([][]string, len(rs))
	for ri := range rs {
		perRec[ri] = featureValues(f.Locations, f.Split, &rs[ri])
		all = append(all, perRec[ri]...)
	}
	seen := map[string]bool{}
	var out []instance
	nrec := 0
	for _, v := range perRec {
		if len(v) > 0 {
			nrec++
		}
	}
	for _, v := range all {
		// A value the page cut short ("Fix the cross-package contracts before...") is
		// typed without its ellipsis.
		v = strings.TrimSpace(strings.TrimRight(strings.TrimLeft(v, ".… "), ".… "))
		k := norm(v)
		if seen[k] || len(k) < 3 || textnorm.IsStopWord(k) || len(strings.Fields(k)) > maxTrialWords {
			continue
		}
		seen[k] = true
		hold := 0
		for _, vs := range perRec {
			for _, x := range vs {
				if contains(x, v) {
					hold++
					break
				}
			}
		}
		share := float64(hold) / float64(max(nrec, 1))
		if share > o.MaxInstanceShare {
			continue
		}
		out = append(out, instance{value: v, share: share, safe: !querySyntax.MatchString(v)})
	}
	// For an ordered feature, values near the median first: a bound there splits the
	// records, one at the extremes says nothing.
	if _, ordered := orderValue(f, "0"); ordered || f.Type == TypeDate {
		// The median of the records' values, not of the distinct values: a catalogue
		// of mostly recent books has many distinct old years, and a bound at the median
		// of those would hold for most records and say nothing.
		var xs []float64
		for _, vs := range perRec {
			for _, v := range vs {
				if x, ok := orderValue(f, v); ok {
					xs = append(xs, x)
				}
			}
		}
		if len(xs) > 0 {
			slices.Sort(xs)
			med := xs[len(xs)/2]
			dist := func(v string) float64 {
				x, ok := orderValue(f, v)
				if !ok {
					return math.Inf(1)
				}
				return math.Abs(x - med)
			}
			slices.SortStableFunc(out, func(a, b instance) int {
				if a.safe != b.safe {
					if a.safe {
						return -1
					}
					return 1
				}
				if c := cmp.Compare(dist(a.value), dist(b.value)); c != 0 {
					return c
				}
				return strings.Compare(a.value, b.value)
			})
			return out
		}
	}
	slices.SortStableFunc(out, func(a, b instance) int {
		if a.safe != b.safe {
			if a.safe {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.share, b.share); c != 0 {
			return c
		}
		wa, wb := len(strings.Fields(a.value)), len(strings.Fields(b.value))
		oka, okb := wa >= 1 && wa <= 5, wb >= 1 && wb <= 5
		if oka != okb {
			if oka {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(len(b.value), len(a.value)); c != 0 {
			return c
		}
		return strings.Compare(a.value, b.value)
	})
	return out
}

// judge evaluates one trial on the records of a result page. The thesis criterion is
// that every instance equals or contains the value (relation "contains"). For ordered
// features (numbers, years, prices, dates) a field can also bind a bound: every
// instance ≥ the value ("min", a "from" field) or ≤ it ("max", a "to" field). A bound
// counts only when it is not trivially true: at most MaxBoundShare of the known
// records (share, computed by the caller) satisfy it.
//
// The control: the page the form gives with its defaults (baseline, nil when unknown)
// must not satisfy the relation as well. Otherwise the field had no visible effect (an
// ignored field, a default listing that happens to match) and the trial says nothing.
func judge(t *Trial, f *Feature, got []rec, o Options, boundShare func(rel string) float64, baseline []rec) {
	t.Records = len(got)
	c := countRelations(f, got, t.Value)
	t.Instances, t.Matched, t.Holders = c.n, c.contains, c.holders
	// A bound is judged on the instances, and a record without one counts against it
	// as for containment.
	bound := o.InstanceMatchShare * float64(max(c.n, len(got)))
	switch {
	case c.n == 0:
	case float64(c.holders) >= o.InstanceMatchShare*float64(len(got)):
		// Containment is judged on the records: every record that came back holds
		// the value at f (any of its values, for a multi-valued feature). A record
		// without a value there counts against it: a number typed into a keyword box
		// finds records that hold it elsewhere (a rating, a title), and counting only
		// the records that show the feature would pass such a page.
		t.Passed, t.Relation = true, RelContains
	case c.ordered && float64(c.ge) >= bound && boundShare != nil && boundShare(RelMin) <= maxBoundShare:
		t.Passed, t.Relation, t.Matched = true, RelMin, c.ge
	case c.ordered && float64(c.le) >= bound && boundShare != nil && boundShare(RelMax) <= maxBoundShare:
		t.Passed, t.Relation, t.Matched = true, RelMax, c.le
	}
	if t.Passed && baseline != nil {
		b := countRelations(f, baseline, t.Value)
		held, of := map[string]int{RelContains: b.holders, RelMin: b.ge, RelMax: b.le}[t.Relation], b.n
		if t.Relation == RelContains {
			of = len(baseline)
		}
		if b.n > 0 && float64(held) >= o.InstanceMatchShare*float64(of) {
			t.Passed, t.Relation, t.Baseline = false, "", true
		}
	}
}

type relCounts struct {
	n, contains, ge, le int
	holders             int // records with an instance that contains the value
	ordered             bool
}

// countRelations counts the instances of f in the records that contain the value, the
// records holding it, and for an ordered feature the instances ≥ and ≤ it.
func countRelations(f *Feature, got []rec, value string) relCounts {
	var c relCounts
	iv, ordered := orderValue(f, value)
	c.ordered = ordered
	for ri := range got {
		held := false
		for _, x := range featureValues(f.Locations, f.Split, &got[ri]) {
			c.n++
			if contains(x, value) {
				c.contains++
				if !held {
					c.holders++
					held = true
				}
			}
			if ordered {
				if xv, ok := orderValue(f, x); ok {
					if xv >= iv {
						c.ge++
					}
					if xv <= iv {
						c.le++
					}
				}
			}
		}
	}
	return c
}

// maxCollision is the chance, from which on a feature counts as of low information,
// that two records drawn at random share its value. A title or a name (≈ 1/distinct
// records) lies far below it; a series number, a year of a recent catalogue, a rating or
// a category lies above it.
const maxCollision = 0.05

// lowInformation returns the keys of the features of low information: two distinct
// records drawn at random hold the same value with probability ≥ maxCollision (the sum
// of the squared value shares over the records with a value, records counted once by
// their text, however many probes found them). A keyword box that finds a number or a
// category in any column passes a trial of such a value by accident (calibre's box
// finds "2.0" as the series number of many books, "2.5" in other columns), so their
// mapping needs every trial to pass, and as many trials as there are.
func lowInformation(fs []Feature, rs []rec) map[string]bool {
	seen := map[string]bool{}
	var uniq []int
	for ri := range rs {
		var b strings.Builder
		for _, l := range rs[ri].leaves {
			b.WriteString(l.path)
			b.WriteByte(0)
			b.WriteString(l.text)
			b.WriteByte(0)
		}
		if k := b.String(); !seen[k] {
			seen[k] = true
			uniq = append(uniq, ri)
		}
	}
	out := map[string]bool{}
	for fi := range fs {
		f := &fs[fi]
		if f.Kind != KindText || f.Type == TypeURL {
			continue
		}
		counts, n := map[string]int{}, 0
		for _, ri := range uniq {
			vals := map[string]bool{}
			for _, v := range featureValues(f.Locations, f.Split, &rs[ri]) {
				if k := norm(v); k != "" {
					vals[k] = true
				}
			}
			if len(vals) == 0 {
				continue
			}
			n++
			for v := range vals {
				counts[v]++
			}
		}
		if n < 2 {
			continue
		}
		c := 0.0
		for _, k := range counts {
			c += float64(k) * float64(k-1) / (float64(n) * float64(n-1))
		}
		if c >= maxCollision {
			out[f.Key] = true
		}
	}
	return out
}

// maxBoundShare: a bound that most records satisfy anyway says nothing about the field.
const maxBoundShare = 0.75

// The relations between a field's value and a feature's instances.
const (
	RelContains = "contains" // every instance equals or contains the value (thesis §3.4)
	RelMin      = "min"      // every instance is ≥ the value
	RelMax      = "max"      // every instance is ≤ the value
	RelOption   = "option"   // the field's options are the feature's values
)

// orderValue returns a comparable number for a value of an ordered feature: the number,
// the year, the amount of a price, or the date as YYYYMMDD.
func orderValue(f *Feature, v string) (float64, bool) {
	switch f.Type {
	case TypeInteger, TypeDecimal, TypeYear, TypePrice, TypeDate:
	default:
		return 0, false
	}
	lex := ""
	if l, ok := f.Typed(v); ok {
		lex = l
	} else if l, _, ok := parseNumber(v); ok {
		lex = l
	} else {
		return 0, false
	}
	if f.Type == TypeDate {
		lex = strings.ReplaceAll(lex, "-", "")
	}
	x, err := strconv.ParseFloat(lex, 64)
	return x, err == nil
}

// boundShares returns, for a value of an ordered feature, the share of the known
// records whose instances all satisfy ≥ (min) or ≤ (max) it.
func boundShares(f *Feature, rs []rec, value string) func(string) float64 {
	iv, ok := orderValue(f, value)
	if !ok {
		return nil
	}
	n, ge, le := 0, 0, 0
	for ri := range rs {
		vals := featureValues(f.Locations, f.Split, &rs[ri])
		if len(vals) == 0 {
			continue
		}
		n++
		allGe, allLe := true, true
		for _, x := range vals {
			xv, ok := orderValue(f, x)
			if !ok {
				allGe, allLe = false, false
				break
			}
			allGe = allGe && xv >= iv
			allLe = allLe && xv <= iv
		}
		if allGe {
			ge++
		}
		if allLe {
			le++
		}
	}
	return func(rel string) float64 {
		if n == 0 {
			return 1
		}
		if rel == RelMin {
			return float64(ge) / float64(n)
		}
		return float64(le) / float64(n)
	}
}

// mapFromLog checks, for every logged probe that typed a value into a text field, the
// features that value is an instance (or a word of an instance) of: the probe is a trial
// of the thesis criterion that cost no new submission.
func (s *Schema) mapFromLog(form rundir.Form, rs []rec, probes []rundir.Probe, o Options) {
	fields := textFields(form)
	if len(fields) == 0 {
		return
	}
	baseline := baselineOf(probes, rs)
	for _, p := range probes {
		if p.Error != "" {
			continue
		}
		var got []rec
		for ri := range rs {
			if rs[ri].probe == p.N {
				got = append(got, rs[ri])
			}
		}
		for _, fd := range fields {
			v := strings.TrimSpace(p.Assignment[fd.Name])
			k := norm(v)
			if len(k) < 3 || textnorm.IsStopWord(k) {
				continue
			}
			for fi := range s.Features {
				f := &s.Features[fi]
				if f.Type == TypeURL {
					continue
				}
				// v must be a (specific) instance of f seen on the pages of other probes:
				// the thesis criterion. A word of an instance tests something weaker (a
				// box that searches every field matches it elsewhere too).
				isInstance := false
				hold, nrec := 0, 0
				for ri := range rs {
					if rs[ri].probe == p.N {
						continue
					}
					vals := featureValues(f.Locations, f.Split, &rs[ri])
					if len(vals) == 0 {
						continue
					}
					nrec++
					for _, x := range vals {
						if norm(x) == k {
							isInstance = true
						}
					}
					for _, x := range vals {
						if contains(x, v) {
							hold++
							break
						}
					}
				}
				if !isInstance || float64(hold) > o.MaxInstanceShare*float64(nrec) {
					continue
				}
				t := Trial{Field: fd.Name, Feature: f.Key, Value: v, Probe: p.N}
				judge(&t, f, got, o, boundShares(f, others(rs, p.N), v), baseline)
				s.hold(&t, got, baseline)
				s.Trials = append(s.Trials, t)
			}
		}
	}
	s.decideTextMappings(form, o, nil)
}

// baselineOf returns the records of the control page: a logged probe that left every
// field at its default; nil when there is none.
func baselineOf(probes []rundir.Probe, rs []rec) []rec {
	for _, p := range probes {
		if p.Error == "" && allEmpty(p.Assignment) {
			out := []rec{}
			for ri := range rs {
				if rs[ri].probe == p.N {
					out = append(out, rs[ri])
				}
			}
			return out
		}
	}
	return nil
}

func allEmpty(m map[string]string) bool {
	for _, v := range m {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

// others returns the records not found by probe n.
func others(rs []rec, n int) []rec {
	out := make([]rec, 0, len(rs))
	for i := range rs {
		if rs[i].probe != n {
			out = append(out, rs[i])
		}
	}
	return out
}

// resubmit runs the re-submission trials (thesis §3.4) for the text fields and features
// that the probe log did not already decide, within MaxSubmissions. Trials go round by
// round over all (field, feature) pairs, so that a tight budget is shared, and a pair
// stops as soon as its outcome is decided.
func (s *Schema) resubmit(ctx context.Context, form rundir.Form, rs []rec, probes []rundir.Probe, sub Submitter, o Options) error {
	log := o.logger()
	pairs, avail := s.trialPairs(form, rs, o)
	r := &resubmission{s: s, rs: rs, sub: sub, o: o, log: log, fill: fillers(form, probes, rs),
		cache: map[string][]rec{}, cacheErr: map[string]error{}}
	if len(pairs) > 0 && o.MaxSubmissions > 0 {
		if err := r.control(ctx); err != nil {
			return err
		}
	}
	for progress := true; progress; {
		progress = false
		for _, p := range pairs {
			if p.decided(o) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			progress = true
			spent, err := r.try(ctx, p)
			if err != nil {
				return err
			}
			if spent {
				log.Warn("submission budget spent: mapping left incomplete", "max_submissions", o.MaxSubmissions)
				s.decideTextMappings(form, o, avail)
				return nil
			}
		}
	}
	if err := r.sortLabels(ctx, form); err != nil {
		return err
	}
	log.Info("input–output mapping", "submissions", r.submissions)
	s.decideTextMappings(form, o, avail)
	return nil
}

// trialPair is a text field and a feature whose mapping re-submissions test: the
// feature's values the field takes, and the trials so far.
type trialPair struct {
	fd                   rundir.Field
	f                    *Feature
	usable               []instance
	next                 int
	passed, failed, done int
	need, possible       int
}

// decided reports whether the pair needs no more trials: enough done, none left, enough
// passed, or too many failed to ever pass.
func (p *trialPair) decided(o Options) bool {
	return p.done >= o.Trials || p.next >= len(p.usable) || p.passed >= p.need && float64(p.passed) >= o.MinTrialShare*float64(p.done) || p.failed > p.possible-p.need
}

// trialPairs returns the pairs of text fields and features not mapped yet, with the
// trials the schema already holds, and the number of values available to each pair.
func (s *Schema) trialPairs(form rundir.Form, rs []rec, o Options) ([]*trialPair, map[[2]string]int) {
	var pairs []*trialPair
	avail := map[[2]string]int{}
	for _, fd := range textFields(form) {
		for fi := range s.Features {
			f := &s.Features[fi]
			if f.Type == TypeURL || s.mapped(fd.Name, f.Key) {
				continue
			}
			p := &trialPair{fd: fd, f: f}
			for _, t := range s.Trials {
				if t.Field == fd.Name && t.Feature == f.Key && t.Error == "" {
					p.done++
					if t.Passed {
						p.passed++
					} else {
						p.failed++
					}
				}
			}
			for _, in := range instances(f, rs, o) {
				if fits(fd, in.value) {
					p.usable = append(p.usable, in)
				}
			}
			avail[[2]string{fd.Name, f.Key}] = len(p.usable) + p.done
			p.possible = min(o.Trials, len(p.usable)+p.done)
			p.need = max(1, min(o.MinPassedTrials, p.possible))
			if s.lowInfo[f.Key] {
				p.need = max(1, p.possible) // every trial must pass
			}
			pairs = append(pairs, p)
		}
	}
	return pairs, avail
}

// resubmission is the state of one schema's re-submissions: the values the other
// fields keep, the answers by field and value, the submissions made, and the control
// page (the form submitted with its defaults).
type resubmission struct {
	s           *Schema
	rs          []rec
	sub         Submitter
	o           Options
	log         *slog.Logger
	fill        map[string]string
	cache       map[string][]rec
	cacheErr    map[string]error
	submissions int
	baseline    []rec
}

// values returns the form's values with field set to v (none set when field is "").
func (r *resubmission) values(field, v string) map[string]string {
	out := map[string]string{}
	for k, x := range r.fill {
		if k != field {
			out[k] = x
		}
	}
	if field != "" {
		out[field] = v
	}
	return out
}

// control submits the form with its defaults: the page trials are compared with. A
// failure leaves the trials without a control; only cancellation is an error.
func (r *resubmission) control(ctx context.Context) error {
	r.submissions++
	recs, err := r.sub.Submit(ctx, r.values("", ""))
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		r.log.Warn("submission with the defaults failed: trials without a control", "err", err)
	default:
		r.baseline, _ = prepare(recs, nil)
	}
	return nil
}

// try runs the pair's next trial: the field re-submitted with the next value (answers
// are cached by field and value) and the answer judged. It reports whether the
// submission budget is spent; the error is cancellation only.
func (r *resubmission) try(ctx context.Context, p *trialPair) (spent bool, err error) {
	s, o := r.s, r.o
	in := p.usable[p.next]
	p.next++
	key := p.fd.Name + "\x00" + in.value
	got, ok := r.cache[key]
	serr := r.cacheErr[key]
	if !ok && serr == nil {
		if r.submissions >= o.MaxSubmissions {
			return true, nil
		}
		r.submissions++
		recs, err := r.sub.Submit(ctx, r.values(p.fd.Name, in.value))
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
				return false, err
			}
			serr = err
			r.cacheErr[key] = err
			r.log.Warn("re-submission failed", "field", p.fd.Name, "value", in.value, "err", err)
		} else {
			got, _ = prepare(recs, nil)
			r.cache[key] = got
		}
	}
	t := Trial{Field: p.fd.Name, Feature: p.f.Key, Value: in.value}
	if serr != nil {
		t.Error = serr.Error()
		s.Trials = append(s.Trials, t)
		return false, nil
	}
	judge(&t, p.f, got, o, boundShares(p.f, r.rs, in.value), r.baseline)
	s.hold(&t, got, r.baseline)
	r.log.Debug("mapping trial", "field", p.fd.Name, "feature", p.f.Key, "value", in.value, "records", t.Records, "matched", fmt.Sprintf("%d/%d", t.Matched, t.Instances), "relation", t.Relation)
	s.Trials = append(s.Trials, t)
	p.done++
	if t.Passed {
		p.passed++
	} else {
		p.failed++
	}
	return false, nil
}

// fillers returns values for the required text fields of the form: a field under test
// is submitted alone, but the browser refuses a form whose required box is empty. The
// filler is the value the probe log typed into that field with the most records (a
// stop word or a letter of a generous index), else "the".
func fillers(form rundir.Form, probes []rundir.Probe, rs []rec) map[string]string {
	count := map[int]int{}
	for i := range rs {
		count[rs[i].probe]++
	}
	out := map[string]string{}
	for _, fd := range textFields(form) {
		if !fd.Required {
			continue
		}
		best, bestN := "the", -1
		for _, p := range probes {
			v := strings.TrimSpace(p.Assignment[fd.Name])
			if v == "" || p.Error != "" || len(p.Assignment) != 1 && !onlyFillers(p.Assignment, fd.Name) {
				continue
			}
			if n := count[p.N]; n > bestN || n == bestN && v < best {
				best, bestN = v, n
			}
		}
		out[fd.Name] = best
	}
	return out
}

// onlyFillers reports whether an assignment sets only the field (other fields empty).
func onlyFillers(a map[string]string, field string) bool {
	for k, v := range a {
		if k != field && strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func (s *Schema) mapped(field, feature string) bool {
	for _, m := range s.Mapping {
		if m.Field == field && m.Feature == feature {
			return true
		}
	}
	return false
}

// decideTextMappings turns the trials into mappings: a field maps to a feature when at
// least MinPassedTrials trials passed (fewer when the feature has fewer usable
// instances) and at least MinTrialShare of the trials made.
func (s *Schema) decideTextMappings(form rundir.Form, o Options, avail map[[2]string]int) {
	type pair struct{ field, feature string }
	total, fresh := map[pair]int{}, map[pair]bool{}
	byRel := map[pair]map[string]int{}
	var order []pair
	for _, t := range s.Trials {
		if t.Error != "" || t.Feature == "" {
			continue // joint trials are decided by decideJointMappings
		}
		k := pair{t.Field, t.Feature}
		if total[k] == 0 {
			order = append(order, k)
			byRel[k] = map[string]int{}
		}
		total[k]++
		if t.Passed {
			byRel[k][t.Relation]++
		}
		if t.Probe == 0 {
			fresh[k] = true
		}
	}
	byName := map[string]rundir.Field{}
	for _, fd := range form.Fields {
		byName[fd.Name] = fd
	}
	// No bound (min, max) for a keyword box, nor for a field whose bound trials all
	// returned as many records as the value typed: a limit on the records shown.
	noBound := map[pair]bool{}
	counted := map[pair]int{}
	for _, t := range s.Trials {
		k := pair{t.Field, t.Feature}
		if slices.Contains(form.KeywordFields, t.Field) {
			noBound[k] = true
		}
		if t.Passed && (t.Relation == RelMin || t.Relation == RelMax) {
			if n, err := strconv.Atoi(strings.TrimSpace(t.Value)); err == nil && n == t.Records {
				counted[k]++
			} else {
				counted[k] = -1 << 30
			}
		}
	}
	for k, n := range counted {
		if n > 0 {
			noBound[k] = true
		}
	}
	for _, k := range order {
		if s.mapped(k.field, k.feature) {
			continue
		}
		need := o.MinPassedTrials
		if n, ok := avail[[2]string{k.field, k.feature}]; ok && n < need {
			need = max(n, 1)
		}
		// Containment is the thesis rule; a bound (min or max) holds when the trials
		// that passed do so under it (or under equality, which satisfies both).
		fd := byName[k.field]
		rel, passed := RelContains, byRel[k][RelContains]
		for _, b := range []string{RelMin, RelMax} {
			if noBound[k] {
				break // a keyword box searches text; a count field returns that many records
			}
			if n := byRel[k][b]; n > 0 && n+byRel[k][RelContains] > passed && n >= byRel[k][RelContains] {
				rel, passed = b, n+byRel[k][RelContains]
			}
		}
		share := o.MinTrialShare
		if s.lowInfo[k.feature] && rel == RelContains {
			// A value of low information found by accident passes one trial and
			// fails the next: every trial must pass, as many as were available.
			need, share = max(need, min(o.Trials, total[k])), 1
		}
		if passed < need || float64(passed) < share*float64(total[k]) {
			continue
		}
		method := "probe-log"
		if fresh[k] {
			method = "resubmission"
		}
		s.Mapping = append(s.Mapping, Mapping{
			Field: k.field, FieldLabel: cleanLabel(fd.Label), FieldType: fieldType(fd), Feature: k.feature,
			Method: method, Relation: rel, Score: round3(float64(passed) / float64(total[k])), Evidence: total[k],
		})
	}
}

// fieldLabels gives each feature the label of a form field mapped to it alone: a field
// mapped to several features, and the form's keyword box ("Search", "Search…"), name
// none of them.
func (s *Schema) fieldLabels(form rundir.Form) {
	perField := map[string]int{}
	for _, m := range s.Mapping {
		perField[m.Field]++
	}
	for _, m := range s.Mapping {
		if perField[m.Field] != 1 || m.FieldLabel == "" || slices.Contains(form.KeywordFields, m.Field) {
			continue
		}
		for i := range s.Features {
			if s.Features[i].Key == m.Feature {
				s.Features[i].Labels = append(s.Features[i].Labels, Label{Text: m.FieldLabel, Source: "field", Support: m.Evidence})
			}
		}
	}
}
