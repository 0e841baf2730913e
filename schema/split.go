package schema

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Composite leaves. A record leaf often holds several attributes in one text node
// ("The Hunger Games [The Hunger Games - 1.0] by Suzanne Collins"). The splitter learns,
// per feature and without domain knowledge, the template of such values: template words
// that recur in most values at the same place (" by ", "Tags=", "Price:"), bracket groups
// and dates that form segments of their own, and punctuation that separates values of
// different types ("Series - 1.0"). It is the string-level counterpart of the template
// induction of RoadRunner and ExAlg (tokens that occur once in most values are template;
// the text between them is data), restricted to what a single text node can carry.
// See docs/decisions/2026-11-22-composite-leaf-splitting.md.

// Placeholder runes that stand for atoms in a masked value (private use area: Clean
// removes such runes from the input, so they cannot collide).
const (
	phBrackets = '\uE000'
	phDate     = '\uE001'
)

// masked is a value with its atoms replaced by one placeholder rune each.
type masked struct {
	s     string // the masked value
	orig  string
	atoms []atomSpan
}

type atomSpan struct {
	kind       string // "brackets" or "date"
	pos        int    // byte offset of the placeholder in s
	text       string // the original text of the atom
	inner      string // the text inside the brackets, or the date
	origOffset int
}

const (
	atomBrackets = "brackets"
	atomDate     = "date"
)

// mask finds the top-level balanced bracket groups and the dates outside them. A group
// glued to the word before it ("git-log(1)", "int(11)", "f(x)") is part of that word,
// not an atom: punctuation inside a value stays in it.
func mask(s string) masked {
	m := masked{orig: s}
	type span struct {
		start, end int
		kind       string
	}
	var spans []span
	// Bracket groups: a stack over ( and [; a mismatched closer or an unclosed opener
	// ends the current group attempt without making an atom.
	var stack []rune
	start := -1
	glued := false // the current group is glued to the word before it: part of that word
	for i, r := range s {
		switch r {
		case '(', '[':
			if len(stack) == 0 {
				start = i
				prev, _ := utf8.DecodeLastRuneInString(s[:i])
				glued = i > 0 && isWordRune(prev)
			}
			stack = append(stack, r)
		case ')', ']':
			if len(stack) == 0 {
				continue
			}
			open := stack[len(stack)-1]
			if open == '(' && r != ')' || open == '[' && r != ']' {
				stack, start = stack[:0], -1
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 && start >= 0 {
				if !glued {
					spans = append(spans, span{start, i + 1, atomBrackets})
				}
				start = -1
			}
		}
	}
	// Dates outside the bracket groups.
	prev := 0
	var dates []span
	outside := func(a, b int) {
		if !hasFourDigits(s[a:b]) {
			return
		}
		for _, loc := range dateAny.FindAllStringIndex(s[a:b], -1) {
			if _, ok := parseDate(s[a+loc[0] : a+loc[1]]); ok {
				dates = append(dates, span{a + loc[0], a + loc[1], atomDate})
			}
		}
	}
	for _, sp := range spans {
		outside(prev, sp.start)
		prev = sp.end
	}
	outside(prev, len(s))
	spans = append(spans, dates...)
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	prev = 0
	for _, sp := range spans {
		b.WriteString(s[prev:sp.start])
		a := atomSpan{kind: sp.kind, pos: b.Len(), text: s[sp.start:sp.end], origOffset: sp.start}
		if sp.kind == atomBrackets {
			a.inner = strings.TrimSpace(s[sp.start+1 : sp.end-1])
			b.WriteRune(phBrackets)
		} else {
			a.inner = a.text
			b.WriteRune(phDate)
		}
		m.atoms = append(m.atoms, a)
		prev = sp.end
	}
	b.WriteString(s[prev:])
	m.s = b.String()
	return m
}

// unmask restores the atoms inside s[a:b] of the masked value.
func (m masked) unmask(a, b int) string {
	var out strings.Builder
	prev := a
	for _, at := range m.atoms {
		if at.pos < a || at.pos >= b {
			continue
		}
		out.WriteString(m.s[prev:at.pos])
		out.WriteString(at.text)
		prev = at.pos + utf8.RuneLen(phBrackets)
	}
	out.WriteString(m.s[prev:b])
	return out.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// findSep returns the byte offsets of the occurrences of sep in s, on word boundaries:
// a separator that starts (ends) with a letter or digit must not be preceded (followed)
// by one.
func findSep(s, sep string) []int {
	if sep == "" {
		return nil
	}
	first, _ := utf8.DecodeRuneInString(sep)
	last, _ := utf8.DecodeLastRuneInString(sep)
	var out []int
	for i := 0; i <= len(s)-len(sep); {
		j := strings.Index(s[i:], sep)
		if j < 0 {
			break
		}
		at := i + j
		ok := true
		if isWordRune(first) && at > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:at])
			ok = !isWordRune(r)
		}
		if ok && isWordRune(last) && at+len(sep) < len(s) {
			r, _ := utf8.DecodeRuneInString(s[at+len(sep):])
			ok = !isWordRune(r)
		}
		if ok {
			out = append(out, at)
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		i = at + size
	}
	return out
}

// segment is one piece of a split value.
type segment struct {
	name string
	text string
}

// edgeTrim is what is trimmed from the ends of a segment: space and separator
// punctuation left over by the cut.
const edgeTrim = " ,;:|/·•–—-=\u00a0"

// applySplit cuts a value with the markers (see SplitStep) and returns its non-empty
// segments in order.
func applySplit(value string, markers []Marker) []segment {
	m := mask(value)
	return m.split(markers)
}

type found struct {
	start, end int
	name       string // the segment name of the marker itself ("atom:…"), or ""
	after      string // the segment name of the text after it
	inner      string
}

func (m masked) locate(markers []Marker) []found {
	cursor := len(m.s)
	var got []found
	for j := len(markers) - 1; j >= 0; j-- {
		mk := markers[j]
		best := -1
		var f found
		if mk.Sep != "" {
			punct := strings.IndexFunc(mk.Sep, isWordRune) < 0
			for _, at := range findSep(m.s, mk.Sep) {
				if punct && !cutsAt(m.s, at, len(mk.Sep)) {
					continue
				}
				if at+len(mk.Sep) <= cursor && at > best {
					best = at
					f = found{start: at, end: at + len(mk.Sep), after: "sep:" + mk.Sep}
				}
			}
		} else {
			for _, a := range m.atoms {
				if a.kind == mk.Atom && a.pos+utf8.RuneLen(phBrackets) <= cursor && a.pos > best {
					best = a.pos
					f = found{start: a.pos, end: a.pos + utf8.RuneLen(phBrackets), name: "atom:" + a.kind, after: "post:" + a.kind, inner: a.inner}
				}
			}
		}
		if best >= 0 {
			got = append(got, f)
			cursor = best
		}
	}
	slices.Reverse(got)
	return got
}

func (m masked) split(markers []Marker) []segment {
	got := m.locate(markers)
	var segs []segment
	add := func(name, text string) {
		text = strings.Trim(text, edgeTrim)
		if text != "" {
			segs = append(segs, segment{name, text})
		}
	}
	prev, prevName := 0, "^"
	for _, f := range got {
		add(prevName, m.unmask(prev, f.start))
		if f.name != "" {
			add(f.name, f.inner)
		}
		prev, prevName = f.end, f.after
	}
	add(prevName, m.unmask(prev, len(m.s)))
	return segs
}

// markerKey is a string that identifies the step's markers.
func (st SplitStep) markerKey() string {
	var b strings.Builder
	for _, m := range st.Markers {
		if m.Atom != "" {
			b.WriteString("\x01" + m.Atom)
		} else {
			b.WriteString("\x02" + m.Sep)
		}
	}
	return b.String()
}

// --- learning ---

type token struct {
	text string
	kind byte // 'w' word, 's' space, 'p' punctuation, 'a' atom
}

func tokenize(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == phBrackets || r == phDate:
			toks = append(toks, token{s[i : i+size], 'a'})
			i += size
		case r == ' ':
			toks = append(toks, token{" ", 's'})
			i += size
		case isWordRune(r):
			j := i + size
			for j < len(s) {
				r2, s2 := utf8.DecodeRuneInString(s[j:])
				if !isWordRune(r2) {
					break
				}
				j += s2
			}
			toks = append(toks, token{s[i:j], 'w'})
			i = j
		default:
			toks = append(toks, token{s[i : i+size], 'p'})
			i += size
		}
	}
	return toks
}

type sepStat struct {
	words   []string // folded words of the separator
	values  int      // values holding it
	once    int      // values holding it exactly once
	inNum   int      // values where it sits between two digits ("8,99", "12:30")
	prefix  int      // values where it starts the value
	suffix  int      // values where it ends the value
	relPos  float64  // sum of relative positions of the first occurrence
	spaced  int      // values where it touches a space, an atom or an end of the value
	hasWord bool
}

// splitInput is one value to learn from, with the folded query terms of the probe
// whose page held the record (a word typed into the form is no template word).
type splitInput struct {
	value string
	terms map[string]bool
	// context is the record's other text, the background against which a candidate
	// template word must stand out (see languageWord); nil when unknown.
	context []textLeaf
}

// textLeaf is the text of one leaf of a record with the leaf's path.
type textLeaf struct {
	path, text string
}

// learnSplit returns the markers of a composite feature, or nil when its values are not
// composite.
func learnSplit(in []splitInput, o Options) []Marker {
	var vals []masked
	var terms []map[string]bool
	var context [][]textLeaf
	for _, v := range in {
		if v.value == "" {
			continue
		}
		vals = append(vals, mask(v.value))
		terms = append(terms, v.terms)
		context = append(context, v.context)
	}
	n := len(vals)
	if n < max(4, o.MinRecords) {
		return nil
	}
	stats := map[string]*sepStat{}
	atoms := atomStats{vals: map[string]int{}, text: map[string]int{}}
	for _, m := range vals {
		countSeparators(m, stats)
		atoms.count(m)
	}
	seps := mostSpecific(separatorCandidates(stats, vals, terms, context, o))
	out := orderMarkers(seps, vals, atoms, o)
	if len(out) == 0 {
		return nil
	}
	out = dropIdleMarkers(vals, out, o)
	if len(out) == 0 {
		return nil
	}
	return out
}

// countSeparators counts, for every run of one or two words and punctuation of the
// masked value m (at most four tokens that are not spaces, never the whole value), in
// how many values it occurs, how often, where, and whether it sits inside a number.
func countSeparators(m masked, stats map[string]*sepStat) {
	toks := tokenize(m.s)
	seen := map[string]bool{}
	for i := range toks {
		if toks[i].kind == 's' || toks[i].kind == 'a' {
			continue
		}
		words, nonSpace := 0, 0
		var b strings.Builder
		for j := i; j < len(toks) && toks[j].kind != 'a'; j++ {
			t := toks[j]
			if t.kind == 'w' {
				words++
			}
			if t.kind != 's' {
				nonSpace++
			}
			if words > 2 || nonSpace > 4 {
				break
			}
			b.WriteString(t.text)
			if t.kind == 's' {
				continue
			}
			if i == 0 && j == len(toks)-1 {
				continue // the whole value: no context
			}
			c := b.String()
			st := stats[c]
			if st == nil {
				st = newSepStat(toks[i : j+1])
				stats[c] = st
			}
			if seen[c] {
				continue
			}
			seen[c] = true
			st.add(m.s, c)
		}
	}
}

// typed reports whether a probe with the folded query terms typed one of the
// separator's words (a word typed into the form is no template word).
func (st *sepStat) typed(terms map[string]bool) bool {
	for _, w := range st.words {
		if terms[w] {
			return true
		}
	}
	return false
}

// newSepStat starts the statistics of a separator made of toks.
func newSepStat(toks []token) *sepStat {
	st := &sepStat{}
	for _, w := range toks {
		if w.kind == 'w' {
			st.words = append(st.words, norm(w.text))
			st.hasWord = true
		}
	}
	return st
}

// add counts the occurrences of the separator c in the masked value s.
func (st *sepStat) add(s, c string) {
	occ := findSep(s, c)
	if len(occ) == 0 {
		return
	}
	st.values++
	if !st.hasWord && betweenDigits(s, occ[0], len(c)) {
		st.inNum++
	}
	if len(occ) == 1 {
		st.once++
	}
	if strings.TrimSpace(s[:occ[0]]) == "" {
		st.prefix++
	}
	if last := occ[len(occ)-1]; strings.TrimSpace(s[last+len(c):]) == "" {
		st.suffix++
	}
	st.relPos += float64(occ[0]) / float64(len(s))
	if detached(s, occ[0], len(c)) {
		st.spaced++
	}
}

// detached reports whether s[at:at+n] is a separator between tokens: inside the value
// it touches a space or an atom on at least one side, at an end of the value on its
// inner side. One glued to the text around it ("git-doc/" in "/git-doc/git-log.html",
// "/" in "Book/Short Story") is inside a token.
func detached(s string, at, n int) bool {
	free := func(r rune) bool { return r == ' ' || r == phBrackets || r == phDate }
	first, last := at == 0, at+n >= len(s)
	if first && last {
		return true
	}
	var before, after rune
	if !first {
		before, _ = utf8.DecodeLastRuneInString(s[:at])
	}
	if !last {
		after, _ = utf8.DecodeRuneInString(s[at+n:])
	}
	switch {
	case first:
		return free(after)
	case last:
		return free(before)
	}
	return free(before) || free(after)
}

// atomStats counts, per atom kind (bracket group, date), the values that hold one and
// those that hold text besides the atoms.
type atomStats struct {
	vals, text map[string]int
}

func (a atomStats) count(m masked) {
	kinds := map[string]bool{}
	for _, at := range m.atoms {
		kinds[at.kind] = true
	}
	for k := range kinds {
		a.vals[k]++
		rest := m.s
		for _, ph := range []string{string(phBrackets), string(phDate)} {
			rest = strings.ReplaceAll(rest, ph, "")
		}
		if strings.IndexFunc(rest, isWordRune) >= 0 {
			a.text[k]++
		}
	}
}

// sepCand is a candidate separator with its share of the values that hold it.
type sepCand struct {
	sep   string
	share float64
	st    *sepStat
}

// separatorCandidates keeps the separators frequent enough among the values whose
// probe did not type their words, once per value, not at the edge of most values, and
// not inside numbers.
func separatorCandidates(stats map[string]*sepStat, vals []masked, terms []map[string]bool, context [][]textLeaf, o Options) []sepCand {
	n := len(vals)
	var cands []sepCand
	for sep, st := range stats {
		if float64(st.values) < o.MinSeparatorSupport*float64(n) {
			continue
		}
		if badSeparator(sep, st) || float64(st.inNum) >= 0.5*float64(st.values) {
			continue // punctuation inside numbers is part of the number
		}
		if float64(st.spaced) < 0.8*float64(st.values) {
			continue // inside a token (a path, a URL, "Book/Short Story"): no cut there
		}
		// Support among the values whose probe did not type the separator's words.
		eligible, holding := 0, 0
		for i, m := range vals {
			if st.typed(terms[i]) {
				continue
			}
			eligible++
			if len(findSep(m.s, sep)) > 0 {
				holding++
			}
		}
		if eligible == 0 {
			continue
		}
		share := float64(holding) / float64(eligible)
		if share < o.MinSeparatorSupport {
			continue
		}
		if float64(st.once) < 0.8*float64(st.values) {
			continue // a list separator or a common word, not a template word
		}
		edge := max(st.prefix, st.suffix)
		if float64(edge) >= 0.5*float64(st.values) && share < 0.9 {
			continue // a frequent first or last word ("The …") is not a template word
		}
		if st.hasWord && languageWord(sep, st, vals, terms, context) {
			continue
		}
		cands = append(cands, sepCand{sep, share, st})
	}
	return cands
}

// templateLift is how many times more often, per word, a template word must occur in
// the feature's values than in the records' other text. A template puts its word into
// (almost) every short value: " by " is one word in five of "Title by Author", one in a
// hundred or fewer in running text. A word of the language ("the", "of") that happens to
// be in half of the values of free text (titles, commit subjects) occurs at about the
// same rate in the records' other text: gitweb's commit subjects hold "the" 1.1-1.2
// times as often as the commit message lines beside them.
const templateLift = 3

// minContextHits is the least number of occurrences of a separator in the records' other
// text for that text to say how common the separator is there; with fewer, the context
// cannot reject it (a template word is rare outside its template).
const minContextHits = 5

// languageWord reports whether the word separator sep is a word of the records' language
// rather than of the template: counted on the records whose probe did not type its
// words, its rate per word in the values is less than templateLift times its rate per
// word in the records' other text. That text leaves out the leaves of the paths that
// are a template of their own with the word, by the rule for values: ≥ 80 % of their
// leaves hold it, ≥ 80 % of those once ("Sold by …" beside "Title by Author"). Running
// text holds a common word in about half of its short leaves, or several times in long
// ones.
func languageWord(sep string, st *sepStat, vals []masked, terms []map[string]bool, context [][]textLeaf) bool {
	type pathStat struct{ leaves, holding, once, hits, words int }
	paths := map[string]*pathStat{}
	var inHits, inWords int
	for i, m := range vals {
		if st.typed(terms[i]) {
			continue
		}
		inHits += len(findSep(m.s, sep))
		inWords += wordCount(m.s)
		for _, l := range context[i] {
			ps := paths[l.path]
			if ps == nil {
				ps = &pathStat{}
				paths[l.path] = ps
			}
			h := len(findSep(l.text, sep))
			ps.leaves++
			ps.hits += h
			ps.words += wordCount(l.text)
			if h > 0 {
				ps.holding++
			}
			if h == 1 {
				ps.once++
			}
		}
	}
	var ctxHits, ctxWords int
	for _, ps := range paths {
		if float64(ps.holding) >= 0.8*float64(ps.leaves) && float64(ps.once) >= 0.8*float64(ps.holding) {
			continue // a template of its own with the same word
		}
		ctxHits += ps.hits
		ctxWords += ps.words
	}
	if ctxHits < minContextHits || inWords == 0 {
		return false
	}
	return float64(inHits)*float64(ctxWords) < templateLift*float64(ctxHits)*float64(inWords)
}

// wordCount counts the runs of letters and digits of s.
func wordCount(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := isWordRune(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// mostSpecific keeps at most four candidates, preferring the most specific of nested
// ones ("Tags=" over "Tags" and "=") and dropping those that overlap a kept one.
func mostSpecific(cands []sepCand) []sepCand {
	slices.SortFunc(cands, func(a, b sepCand) int {
		if c := cmp.Compare(b.share, a.share); c != 0 {
			return c
		}
		if c := cmp.Compare(len(b.sep), len(a.sep)); c != 0 {
			return c
		}
		return strings.Compare(a.sep, b.sep)
	})
	var seps []sepCand
	for _, c := range cands {
		keep := true
		for i, k := range seps {
			if strings.Contains(k.sep, c.sep) && k.share >= 0.9*c.share {
				keep = false
				break
			}
			if strings.Contains(c.sep, k.sep) && c.share >= 0.9*k.share {
				seps[i] = c // the longer one is as frequent: it replaces the shorter
				keep = false
				break
			}
			if overlaps(c.sep, k.sep) {
				keep = false
				break
			}
		}
		if keep {
			seps = append(seps, c)
		}
		if len(seps) == 4 {
			break
		}
	}
	return slices.CompactFunc(seps, func(a, b sepCand) bool { return a.sep == b.sep })
}

// orderMarkers makes the markers of the separators and of the atoms frequent enough (and
// holding text besides), ordered by their mean relative position in the values.
func orderMarkers(seps []sepCand, vals []masked, atoms atomStats, o Options) []Marker {
	n := len(vals)
	type mk struct {
		m   Marker
		pos float64
	}
	var markers []mk
	for _, c := range seps {
		markers = append(markers, mk{Marker{Sep: c.sep}, c.st.relPos / float64(c.st.values)})
	}
	for _, k := range []string{atomBrackets, atomDate} {
		if atoms.vals[k] == 0 || float64(atoms.vals[k]) < o.MinAtomSupport*float64(n) || float64(atoms.text[k]) < 0.5*float64(atoms.vals[k]) {
			continue
		}
		var pos float64
		var cnt int
		for _, m := range vals {
			for _, a := range m.atoms {
				if a.kind == k {
					pos += float64(a.pos) / float64(len(m.s))
					cnt++
					break
				}
			}
		}
		markers = append(markers, mk{Marker{Atom: k}, pos / float64(cnt)})
	}
	slices.SortStableFunc(markers, func(a, b mk) int { return cmp.Compare(a.pos, b.pos) })
	out := make([]Marker, len(markers))
	for i, m := range markers {
		out[i] = m.m
	}
	return out
}

// dropIdleMarkers drops markers that do not cut data: a separator whose neighbouring
// segments never vary is part of a constant phrase; punctuation separates only values of
// different types (it would otherwise cut "Dickens, Charles" or a list).
func dropIdleMarkers(vals []masked, out []Marker, o Options) []Marker {
	for changed := true; changed && len(out) > 0; {
		changed = false
		for i := range out {
			if !markerCuts(vals, out, i, o) {
				out = slices.Delete(slices.Clone(out), i, i+1)
				changed = true
				break
			}
		}
	}
	return out
}

// badSeparator rejects candidates that cannot be template separators: words with digits
// (numbers are data), punctuation that belongs to a word or number ("." "'" "&"), very
// long words.
func badSeparator(sep string, st *sepStat) bool {
	for _, r := range sep {
		if unicode.IsDigit(r) {
			return true
		}
	}
	if !st.hasWord {
		t := strings.TrimSpace(sep)
		switch t {
		case ".", "'", "’", "&", "+", "%", "!", "?", "\"", "#", "*", "$", "€", "£":
			return true
		}
		return false
	}
	for _, w := range st.words {
		if utf8.RuneCountInString(w) > 15 {
			return true
		}
	}
	return false
}

// cutsAt reports whether the punctuation separator s[at:at+n] may cut the value there:
// only where it stands as the learning counted it, detached from the text around it and
// not between two digits. The " - " of "Harry Potter - 2.0" cuts; the "-" of a range
// ("#1-3", "0.1-0.5") or of a word ("Middle-earth") is part of the value (issue 15: a
// range is no number, and text stays whole unless the split is regular).
func cutsAt(s string, at, n int) bool {
	return detached(s, at, n) && !betweenDigits(s, at, n)
}

// betweenDigits reports whether s[at:at+n] has a digit right before and right after it.
func betweenDigits(s string, at, n int) bool {
	if at == 0 || at+n >= len(s) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:at])
	after, _ := utf8.DecodeRuneInString(s[at+n:])
	return unicode.IsDigit(before) && unicode.IsDigit(after)
}

func overlaps(a, b string) bool {
	// Two separators overlap when the end of one is the start of the other ("by The",
	// "The Hunger"): keep only the first chosen.
	for k := 1; k < min(len(a), len(b)); k++ {
		if strings.HasSuffix(a, b[:k]) || strings.HasSuffix(b, a[:k]) {
			if isWordRune(rune(a[len(a)-1])) && isWordRune(rune(b[0])) {
				return true
			}
		}
	}
	return false
}

// markerCuts reports whether marker i of markers separates data: for a separator, the
// segment before it or the one after it takes ≥ 2 distinct values; for punctuation the
// two sides have different value types; for an atom, the atom varies.
func markerCuts(vals []masked, markers []Marker, i int, o Options) bool {
	mkr := markers[i]
	var before, after []string
	for _, m := range vals {
		got := m.locate(markers)
		for k, f := range got {
			isIt := mkr.Sep != "" && f.after == "sep:"+mkr.Sep || mkr.Atom != "" && f.name == "atom:"+mkr.Atom
			if !isIt {
				continue
			}
			start := 0
			if k > 0 {
				start = got[k-1].end
			}
			end := len(m.s)
			if k+1 < len(got) {
				end = got[k+1].start
			}
			b := strings.Trim(m.unmask(start, f.start), edgeTrim)
			a := strings.Trim(m.unmask(f.end, end), edgeTrim)
			// A separator between two atoms ("<date> Tags=[…]") cuts the atoms.
			if b == "" && k > 0 && got[k-1].name != "" {
				b = got[k-1].inner
			}
			if a == "" && k+1 < len(got) && got[k+1].name != "" {
				a = got[k+1].inner
			}
			if mkr.Atom != "" {
				a = f.inner
			}
			before = append(before, b)
			after = append(after, a)
		}
	}
	if len(after) == 0 {
		return false
	}
	varies := func(xs []string) bool {
		seen := map[string]bool{}
		for _, x := range xs {
			if x != "" {
				seen[norm(x)] = true
			}
		}
		return len(seen) >= 2
	}
	if mkr.Atom != "" {
		return varies(after)
	}
	if !varies(before) && !varies(after) {
		return false
	}
	hasWord := strings.IndexFunc(mkr.Sep, unicode.IsLetter) >= 0
	if hasWord {
		switch {
		case blankOrConstant(after):
			// A suffix ("320 pages", "5 days ago"): cut only when it ends (almost) every
			// value and what it follows is a number, a price or a date, which the cut
			// frees from its unit.
			t, _, _, _ := typeOf(before, o.TypeShare)
			return orderedType(t) && float64(len(after)) >= 0.9*float64(len(vals))
		case constantText(before):
			return false // a phrase: "Based on Book", "Based on Play"
		}
		return true
	}
	tb, _, _, _ := typeOf(before, o.TypeShare)
	ta, _, _, _ := typeOf(after, o.TypeShare)
	return tb != ta
}

// sepLabel returns the label a separator gives: a "Label:" or "Label=" prefix labels
// the segment after it (next = true); a word that ends the value in almost every value
// ("320 pages") labels the segment before it.
func sepLabel(sep string, suffixShare float64) (label string, next bool, ok bool) {
	t := strings.TrimSpace(sep)
	if t == "" {
		return "", false, false
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	if last == ':' || last == '=' {
		l := strings.TrimSpace(strings.TrimRight(t, ":="))
		if l != "" && strings.IndexFunc(l, unicode.IsLetter) == 0 {
			return l, true, true
		}
		return "", false, false
	}
	if suffixShare >= 0.9 && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && r != ' ' }) < 0 {
		return t, false, true
	}
	return "", false, false
}

// blankOrConstant reports whether the segments are (almost) all empty or one text: what
// a separator at the end of the values leaves after it.
func blankOrConstant(xs []string) bool {
	counts := map[string]int{}
	blank := 0
	for _, x := range xs {
		if x == "" {
			blank++
			continue
		}
		counts[norm(x)]++
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return float64(blank+top) >= 0.9*float64(len(xs))
}

// constantText reports whether the segments mostly hold text and (almost) always the
// same text: the words before a separator inside a fixed phrase.
func constantText(xs []string) bool {
	counts := map[string]int{}
	filled := 0
	for _, x := range xs {
		if x != "" {
			filled++
			counts[norm(x)]++
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return float64(filled) >= 0.5*float64(len(xs)) && float64(top) >= 0.9*float64(filled)
}

// orderedType reports whether values of type t are numbers, amounts or dates.
func orderedType(t ValueType) bool {
	switch t {
	case TypeInteger, TypeDecimal, TypePrice, TypeDate, TypeYear:
		return true
	}
	return false
}
