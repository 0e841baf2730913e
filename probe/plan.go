package probe

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Probe kinds (Probe.Kind and Assignment.Kind).
const (
	KindNonsense = "nonsense" // a random word, to learn the error / no-result page
	KindEmpty    = "empty"    // the form as it is, nothing typed
	KindStopword = "stopword" // a stop word of the page's language
	KindLetter   = "letter"   // a single letter (generous index)
	KindOption   = "option"   // one option of a select, radio or checkbox group
	KindCombo    = "combo"    // two options of different fields
	KindTerm     = "term"     // a word of the option texts, labels or the text around the form
	KindPlan     = "plan"     // an explicit plan (e.g. values suggested by the ontology)
	KindMapping  = "mapping"  // a re-submission of the input–output mapping
)

// MultiSep separates the values of a checkbox group in one assignment value.
const MultiSep = "\x1f"

// Assignment is one planned submission: the fields to set and their values (fields not
// listed keep their defaults).
type Assignment struct {
	Kind   string            `json:"kind"`
	Values map[string]string `json:"values"`
}

// Plan is an ordered list of submissions.
type Plan []Assignment

// PlanOptions configures AgnosticPlan.
type PlanOptions struct {
	// MaxProbes caps the plan's length.
	MaxProbes int
	// StopWords is how many stop words of the page's language to try.
	StopWords int
	// Letters are the single letters to try in each keyword box.
	Letters []string
	// Terms is how many contextual terms (from option texts, labels and the text around
	// the form) to try.
	Terms int
	// OptionsPerField caps the options tried per select, radio or checkbox group.
	OptionsPerField int
	// Lang is the language of the stop words ("en", "fr", "de", "es"); "" guesses it
	// from the form's text.
	Lang string
	// Seed makes the nonsense word reproducible; 0 draws it at random.
	Seed uint64
}

// DefaultPlanOptions returns a plan of at most 40 probes.
func DefaultPlanOptions() PlanOptions {
	return PlanOptions{MaxProbes: 40, StopWords: 4, Letters: []string{"a", "e", "s"}, Terms: 8, OptionsPerField: 8}
}

// presentation matches names of controls that change how results are shown, not which
// records match (sort order, page size, view).
var presentation = regexp.MustCompile(`(?i)^(sort|sortby|sort_by|order|orderby|order_by|dir|direction|num|per_?page|page_?size|limit|rows|view|display|layout|format_view|results?_per_page)$`)

// uiWords are words of form chrome that make poor query terms.
var uiWords = map[string]bool{
	"search": true, "find": true, "go": true, "submit": true, "reset": true, "clear": true, "results": true,
	"result": true, "sort": true, "order": true, "ascending": true, "descending": true, "any": true, "all": true,
	"none": true, "select": true, "choose": true, "show": true, "page": true, "per": true, "more": true,
	"less": true, "and": true, "or": true, "not": true, "enter": true, "type": true, "keywords": true,
	"keyword": true, "field": true, "fields": true, "stars": true, "up": true,
	"next": true, "previous": true, "prev": true, "first": true, "last": true, "back": true, "home": true,
}

// textFields returns the fields a word can be typed into: visible text and search
// boxes (and inputs without type), not e-mail, URL, phone, number or date inputs.
func textFields(f Form) []Field {
	var out []Field
	for _, fd := range f.Fields {
		if fd.Submit || fd.Disabled || fd.ReadOnly || fd.Name == "" {
			continue
		}
		switch fd.Type {
		case "", "text", "search", "textarea":
			if len(fd.Options) == 0 {
				out = append(out, fd)
			}
		}
	}
	return out
}

// keywordFields returns the keyword boxes: Form.KeywordFields, else the fields whose
// Role is "keyword", else every text field that can take query words (keywordCapable);
// the main box first.
func keywordFields(f Form) []Field {
	texts := textFields(f)
	var out []Field
	for _, name := range f.KeywordFields {
		for _, fd := range texts {
			if fd.Name == name {
				out = append(out, fd)
			}
		}
	}
	if len(out) == 0 {
		for _, fd := range texts {
			if fd.Role == "keyword" {
				out = append(out, fd)
			}
		}
	}
	if len(out) == 0 {
		// No box was classified as the keyword box: any box that can take query
		// words stands in (not a code box, not a count of a few characters).
		for _, fd := range texts {
			if keywordCapable(fd) {
				out = append(out, fd)
			}
		}
	}
	return out
}

// queryWordBoxes returns the text fields that can take query words (keywordCapable),
// or every text field when none can: a letter typed into a row-count box or an SQL box
// is not a query, and the site answers it with its form page or an error.
func queryWordBoxes(texts []Field) []Field {
	var out []Field
	for _, fd := range texts {
		if keywordCapable(fd) {
			out = append(out, fd)
		}
	}
	if len(out) == 0 {
		return texts
	}
	return out
}

// choiceFields returns the selects, radio groups and checkbox groups that filter
// records (presentation controls such as sort order and page size are left out).
func choiceFields(f Form) []Field {
	var out []Field
	for _, fd := range f.Fields {
		if fd.Submit || fd.Disabled || fd.Name == "" || len(fd.Options) == 0 {
			continue
		}
		switch fd.Role {
		case "sort", "page-size", "hidden", "submit":
			continue
		}
		if presentation.MatchString(fd.Name) {
			continue
		}
		switch fd.Type {
		case "select", "select-one", "select-multiple", "radio", "checkbox":
			out = append(out, fd)
		}
	}
	return out
}

// detectLang guesses the language of the form's text from stop-word counts.
func detectLang(f Form) string {
	var b strings.Builder
	b.WriteString(f.Text)
	for _, fd := range f.Fields {
		b.WriteString(" " + fd.Label + " " + fd.Placeholder)
		for _, o := range fd.Options {
			b.WriteString(" " + o.Text)
		}
	}
	toks := textnorm.Tokens(b.String())
	best, bestN := "en", 0
	for _, lang := range textnorm.Languages() {
		set := map[string]bool{}
		for _, w := range textnorm.StopWords(lang) {
			set[w] = true
		}
		n := 0
		for _, t := range toks {
			if set[t] {
				n++
			}
		}
		if n > bestN {
			best, bestN = lang, n
		}
	}
	return best
}

// NonsenseWord returns a random lower-case word of 10 to 14 letters that no page is
// likely to contain. A zero seed draws it at random.
func NonsenseWord(seed uint64) string {
	var r *rand.Rand
	if seed == 0 {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	} else {
		r = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	}
	const consonants = "bcdfghjklmnpqrstvwxz"
	const vowels = "aeiouy"
	n := 10 + r.IntN(5)
	var b strings.Builder
	b.WriteByte('q')
	b.WriteByte('z')
	for i := 2; i < n; i++ {
		if i%3 == 2 {
			b.WriteByte(vowels[r.IntN(len(vowels))])
		} else {
			b.WriteByte(consonants[r.IntN(len(consonants))])
		}
	}
	return b.String()
}

// AgnosticPlan plans domain-agnostic probes for a search form (thesis §3.1, after
// Barbosa & Freire 2004 and Madhavan et al. 2008): a nonsense word in each text box
// that takes query words (the error / no-result page), the empty submission, stop words
// of the page's language in the keyword box and single letters in every box that takes
// query words (a generous index answers them; queryWordBoxes), each option of the selects, radio and checkbox groups alone, terms taken from
// the option texts and the text around the form, and pairs of options of two fields. The kinds
// are interleaved so that a small MaxProbes still covers each. Values respect the
// fields' types and constraints; a required box left out of an assignment gets a stop
// word, so that the browser accepts the submission.
func AgnosticPlan(f Form, o PlanOptions) Plan {
	if o.MaxProbes <= 0 {
		o.MaxProbes = DefaultPlanOptions().MaxProbes
	}
	lang := o.Lang
	if lang == "" {
		lang = detectLang(f)
	}
	stops := textnorm.StopWords(lang)
	if len(stops) == 0 {
		stops = textnorm.StopWords("en")
	}
	kws := keywordFields(f)
	texts := textFields(f)
	choices := choiceFields(f)
	pl := &planner{f: f, filler: firstFitting(stops, kws), seen: map[string]bool{}}
	nonsense := NonsenseWord(o.Seed)

	// Words (the nonsense word, letters) go into the boxes that take query words; a
	// code box or a count of a few characters gets none unless the form has no other
	// text box.
	wordBoxes := queryWordBoxes(texts)

	// The nonsense word goes first: it tells the error page apart.
	var head []Assignment
	for i, fd := range wordBoxes {
		if i >= 3 {
			break
		}
		if v, ok := fitText(fd, nonsense); ok {
			pl.add(&head, KindNonsense, map[string]string{fd.Name: v})
		}
	}
	if !hasRequired(f) {
		pl.add(&head, KindEmpty, map[string]string{})
	}

	var stopQ, letterQ, termQ []Assignment
	if len(kws) > 0 {
		n := 0
		for _, w := range stops {
			if n >= o.StopWords {
				break
			}
			if v, ok := fitText(kws[0], w); ok {
				pl.add(&stopQ, KindStopword, map[string]string{kws[0].Name: v})
				n++
			}
		}
	}
	for _, l := range o.Letters {
		for _, fd := range wordBoxes {
			if v, ok := fitText(fd, l); ok {
				pl.add(&letterQ, KindLetter, map[string]string{fd.Name: v})
			}
		}
	}
	perField := make([][]Option, len(choices))
	for i, fd := range choices {
		perField[i] = spread(probeOptions(fd), o.OptionsPerField)
	}
	optionQ := pl.options(choices, perField)
	if len(kws) > 0 {
		for _, term := range contextTerms(f, nonsense, o.Terms*3) {
			if len(termQ) >= o.Terms {
				break
			}
			if v, ok := fitText(kws[0], term); ok {
				pl.add(&termQ, KindTerm, map[string]string{kws[0].Name: v})
			}
		}
	}
	comboQ := pl.combos(choices, perField)
	return interleave(head, [][]Assignment{stopQ, letterQ, optionQ, termQ, comboQ}, o.MaxProbes)
}

// planner builds the queues of a plan: every assignment completed with the required
// fields' values, and each distinct assignment once.
type planner struct {
	f      Form
	filler string
	seen   map[string]bool
}

// add appends the assignment of kind and vals to q unless the plan has it already.
func (pl *planner) add(q *[]Assignment, kind string, vals map[string]string) {
	a := Assignment{Kind: kind, Values: vals}
	completeRequired(pl.f, &a, pl.filler)
	key := assignmentKey(a)
	if pl.seen[key] {
		return
	}
	pl.seen[key] = true
	*q = append(*q, a)
}

// options returns the option probes, round-robin over the fields, so that every field
// gets tried early.
func (pl *planner) options(choices []Field, perField [][]Option) []Assignment {
	var q []Assignment
	for j := 0; ; j++ {
		more := false
		for i, fd := range choices {
			if j < len(perField[i]) {
				more = true
				pl.add(&q, KindOption, map[string]string{fd.Name: perField[i][j].Value})
			}
		}
		if !more {
			return q
		}
	}
}

// combos returns probes that set two choice fields at once, with options of shifted
// ranks.
func (pl *planner) combos(choices []Field, perField [][]Option) []Assignment {
	var q []Assignment
	for i := 0; i < len(choices); i++ {
		for k := i + 1; k < len(choices); k++ {
			for j := 0; j < min(len(perField[i]), len(perField[k])); j++ {
				a, b := perField[i][j], perField[k][(j+1)%len(perField[k])]
				pl.add(&q, KindCombo, map[string]string{choices[i].Name: a.Value, choices[k].Name: b.Value})
			}
		}
	}
	return q
}

// interleave returns head followed by the queues taken one assignment each in turn, at
// most limit in all.
func interleave(head []Assignment, queues [][]Assignment, limit int) Plan {
	plan := Plan(head)
	for len(plan) < limit {
		progressed := false
		for qi := range queues {
			if len(queues[qi]) > 0 && len(plan) < limit {
				plan = append(plan, queues[qi][0])
				queues[qi] = queues[qi][1:]
				progressed = true
			}
		}
		if !progressed {
			break
		}
	}
	if len(plan) > limit {
		plan = plan[:limit]
	}
	return plan
}

// ExplicitPlan turns a field → values map into a plan: one submission per value, the
// fields in form order. Every field must exist in the form and every value must satisfy
// the field's constraints; the error names the field and the value.
func ExplicitPlan(f Form, fieldValues map[string][]string) (Plan, error) {
	var plan Plan
	names := map[string]bool{}
	for _, fd := range f.Fields {
		names[fd.Name] = true
	}
	for name := range fieldValues {
		if !names[name] {
			return nil, fmt.Errorf("probe: plan: field %q is not in the form (fields: %s)", name, strings.Join(fieldNames(f), ", "))
		}
	}
	stops := textnorm.StopWords(detectLang(f))
	filler := firstFitting(stops, keywordFields(f))
	done := map[string]bool{}
	for _, fd := range f.Fields {
		vals, ok := fieldValues[fd.Name]
		if !ok || done[fd.Name] {
			continue
		}
		done[fd.Name] = true
		for _, v := range vals {
			if err := CheckValue(fd, v); err != nil {
				return nil, fmt.Errorf("probe: plan: %w", err)
			}
			a := Assignment{Kind: KindPlan, Values: map[string]string{fd.Name: v}}
			completeRequired(f, &a, filler)
			plan = append(plan, a)
		}
	}
	return plan, nil
}

func fieldNames(f Form) []string {
	var out []string
	for _, fd := range f.Fields {
		if fd.Name != "" && !slices.Contains(out, fd.Name) {
			out = append(out, fd.Name)
		}
	}
	return out
}

// CheckValue reports whether v may be submitted in field fd: the field is enabled, a
// choice field has that option, a hidden field keeps its value, a number, range, date,
// time or colour field gets a value of its type, and a text field's length, pattern and
// range accept it.
func CheckValue(fd Field, v string) error {
	bad := func(why string) error { return fmt.Errorf("field %q: value %q %s", fd.Name, v, why) }
	if fd.Disabled || fd.ReadOnly {
		return fmt.Errorf("field %q is disabled or read-only", fd.Name)
	}
	if fd.Submit {
		return fmt.Errorf("field %q is a submit control", fd.Name)
	}
	if len(fd.Options) > 0 {
		for _, part := range strings.Split(v, MultiSep) {
			if part == "" && fd.Type == "checkbox" {
				continue
			}
			ok := false
			for _, o := range fd.Options {
				if o.Value == part || textnorm.Fold(o.Text) == textnorm.Fold(part) {
					ok = true
				}
			}
			if !ok {
				return bad("is not one of its options")
			}
		}
		return nil
	}
	n := utf8.RuneCountInString(v)
	if fd.MaxLength > 0 && n > fd.MaxLength {
		return bad(fmt.Sprintf("is longer than maxlength %d", fd.MaxLength))
	}
	if fd.MinLength > 0 && n > 0 && n < fd.MinLength {
		return bad(fmt.Sprintf("is shorter than minlength %d", fd.MinLength))
	}
	if fd.Pattern != "" && v != "" {
		if re, err := regexp.Compile("^(?:" + fd.Pattern + ")$"); err == nil && !re.MatchString(v) {
			return bad(fmt.Sprintf("does not match the pattern %q", fd.Pattern))
		}
	}
	switch fd.Type {
	case "hidden":
		if v != fd.Value {
			return bad(fmt.Sprintf("would replace the value %q of a hidden field (trawl keeps hidden values)", fd.Value))
		}
	case "date", "month", "week", "time", "datetime-local", "color":
		if v != "" && !typedValue[fd.Type].MatchString(v) {
			return bad("is not a valid " + fd.Type + " value")
		}
	case "number", "range":
		if v == "" {
			return nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return bad("is not a number")
		}
		if lo, err := strconv.ParseFloat(fd.Min, 64); err == nil && x < lo {
			return bad("is below min " + fd.Min)
		}
		if hi, err := strconv.ParseFloat(fd.Max, 64); err == nil && x > hi {
			return bad("is above max " + fd.Max)
		}
	case "email":
		if v != "" && !strings.Contains(v, "@") {
			return bad("is not an e-mail address")
		}
	case "url":
		if v != "" && !strings.Contains(v, "://") {
			return bad("is not a URL")
		}
	}
	return nil
}

// typedValue are the value formats of the HTML input types whose values are not free
// text (HTML Living Standard, "valid date string" etc.).
var typedValue = map[string]*regexp.Regexp{
	"date":           regexp.MustCompile(`^\d{4,}-\d{2}-\d{2}$`),
	"month":          regexp.MustCompile(`^\d{4,}-\d{2}$`),
	"week":           regexp.MustCompile(`^\d{4,}-W\d{2}$`),
	"time":           regexp.MustCompile(`^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$`),
	"datetime-local": regexp.MustCompile(`^\d{4,}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$`),
	"color":          regexp.MustCompile(`^#[0-9a-fA-F]{6}$`),
}

// fitText returns v if field fd accepts it.
func fitText(fd Field, v string) (string, bool) {
	if CheckValue(fd, v) != nil {
		return "", false
	}
	return v, true
}

// firstFitting returns the first word that the first keyword box accepts ("" if none).
func firstFitting(words []string, kws []Field) string {
	if len(kws) == 0 {
		return ""
	}
	for _, w := range words {
		if _, ok := fitText(kws[0], w); ok {
			return w
		}
	}
	return ""
}

func hasRequired(f Form) bool {
	for _, fd := range f.Fields {
		if fd.Required && !fd.Disabled && fd.Value == "" && fd.Type != "hidden" && !fd.Submit {
			return true
		}
	}
	return false
}

// completeRequired fills the required fields an assignment leaves empty: a text box
// with filler (a stop word), a choice field with its first non-empty option.
func completeRequired(f Form, a *Assignment, filler string) {
	for _, fd := range f.Fields {
		if !fd.Required || fd.Disabled || fd.Submit || fd.Type == "hidden" || fd.Value != "" {
			continue
		}
		if _, ok := a.Values[fd.Name]; ok {
			continue
		}
		if len(fd.Options) > 0 {
			for _, o := range fd.Options {
				if o.Value != "" {
					a.Values[fd.Name] = o.Value
					break
				}
			}
			continue
		}
		if filler != "" && CheckValue(fd, filler) == nil {
			a.Values[fd.Name] = filler
		}
	}
}

// probeOptions returns the options of a choice field worth probing: non-empty values
// other than the default.
func probeOptions(fd Field) []Option {
	var out []Option
	for _, o := range fd.Options {
		if strings.TrimSpace(o.Value) == "" || (o.Selected && fd.Type != "checkbox") {
			continue
		}
		out = append(out, o)
	}
	return out
}

// spread picks at most n options evenly over the list.
func spread(opts []Option, n int) []Option {
	if n <= 0 || len(opts) <= n {
		return opts
	}
	out := make([]Option, 0, n)
	for i := range n {
		out = append(out, opts[i*len(opts)/n])
	}
	return out
}

// contextTerms returns words of the option texts of the filtering choice fields and
// of the text around the form, most frequent first (option texts count double), without
// stop words, UI words, short words, numbers, the nonsense word and the words of the
// field labels (a label names a field; it is rarely a good query).
func contextTerms(f Form, nonsense string, limit int) []string {
	skip := map[string]bool{nonsense: true}
	for _, fd := range f.Fields {
		for _, t := range textnorm.Tokens(fd.Label + " " + fd.Placeholder + " " + fd.Title) {
			skip[t] = true
		}
		if len(fd.Options) > 0 && !slices.ContainsFunc(choiceFields(f), func(c Field) bool { return c.Name == fd.Name }) {
			for _, o := range fd.Options { // presentation controls (sort, page size)
				for _, t := range textnorm.Tokens(o.Text) {
					skip[t] = true
				}
			}
		}
	}
	count := map[string]int{}
	first := map[string]int{}
	pos := 0
	addText := func(s string, weight int) {
		for _, t := range textnorm.Tokens(s) {
			if utf8.RuneCountInString(t) < 3 || uiWords[t] || isStop(t) || skip[t] {
				continue
			}
			if _, err := strconv.Atoi(t); err == nil {
				continue
			}
			if _, ok := first[t]; !ok {
				first[t] = pos
				pos++
			}
			count[t] += weight
		}
	}
	for _, fd := range choiceFields(f) {
		for _, o := range fd.Options {
			addText(o.Text, 2)
		}
	}
	addText(f.Text, 1)
	terms := make([]string, 0, len(count))
	for t := range count {
		terms = append(terms, t)
	}
	slices.SortFunc(terms, func(a, b string) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(first[a], first[b])
	})
	if len(terms) > limit {
		terms = terms[:limit]
	}
	return terms
}

// isStop reports whether a folded token is a stop word of any known language.
func isStop(t string) bool { return allStops()[t] }

var allStops = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range textnorm.Languages() {
		for _, w := range textnorm.StopWords(l) {
			m[w] = true
		}
	}
	return m
})

// assignmentKey is a canonical string of an assignment's values.
func assignmentKey(a Assignment) string {
	keys := make([]string, 0, len(a.Values))
	for k := range a.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + a.Values[k] + "\x00")
	}
	return b.String()
}
