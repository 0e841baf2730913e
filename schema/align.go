package schema

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// Input is what Build needs besides the records.
type Input struct {
	// Form is the probed form (form.json); nil when unknown. It gives the source
	// identity, the fields to map and their labels.
	Form *rundir.Form
	// Probes is the probe log (probes.jsonl). It ties records to the probes that found
	// them: the query terms of a probe are never template words, and logged submissions
	// are evidence for the input–output mapping.
	Probes []rundir.Probe
	// Page returns the HTML of a page named by records.Record.Page; it is used to read
	// the table headers above tabular records. Nil: no header labels.
	Page func(name string) ([]byte, error)
	// Submitter re-submits the form to test text fields against features. Nil: only the
	// logged probes are used as trials.
	Submitter Submitter
}

// cand is a candidate feature during alignment.
type cand struct {
	locs    []Location
	split   []SplitStep
	multi   bool
	vals    [][]string // per record
	pos     float64
	labels  []Label
	dropped string
	typ     ValueType
	tshare  float64
	cur     string
	dord    string
	// perQuery: the values for one record change with the probe (markPerQuery).
	perQuery bool
}

func (c *cand) key() string {
	var b strings.Builder
	for i, l := range c.locs {
		if i > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(l.Path)
		if l.Nth != 0 {
			fmt.Fprintf(&b, "#%d", l.Nth)
		}
		if l.Attr != "" {
			b.WriteString("/@" + l.Attr)
		}
	}
	for _, st := range c.split {
		b.WriteString(" | " + st.Segment)
	}
	return b.String()
}

func (c *cand) records() int {
	n := 0
	for _, v := range c.vals {
		if len(v) > 0 {
			n++
		}
	}
	return n
}

// Build aligns the records' leaves into an output schema (thesis ch. 3 §3.3): leaves
// are grouped into candidate features by record-internal path (and occurrence, for
// paths that repeat a fixed number of times in a record), composite leaves are split,
// template text, query echoes and ranks are dropped, features found under slightly
// different paths are merged, and each feature gets a value type and, where the page
// gives one, a label. Selects and radio groups of the form are mapped to features whose
// values are their options; logged probes that typed a feature's value into a text field
// are checked as mapping trials. Map adds re-submission trials.
func Build(ctx context.Context, recs []records.Record, in Input, o Options) (*Schema, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	log := o.logger()
	pages := pageIndex(in.Probes)
	rs, repaired := prepare(recs, pages)
	s := &Schema{Version: FormatVersion, Options: o, Mapping: []Mapping{}}
	if s.Joins = learnJoins(rs); len(s.Joins) > 0 {
		recs = joinRecords(recs, s.Joins)
		rs, repaired = prepare(recs, pages)
		log.Info("text cut around highlighted query terms is read whole", "elements", len(s.Joins))
	}
	s.Source = sourceOf(in.Form, in.Probes, rs)
	pageSet := map[string]bool{}
	for i := range rs {
		pageSet[rs[i].page] = true
		s.Stats.Leaves += len(rs[i].leaves)
	}
	s.Stats.Records, s.Stats.Pages, s.Stats.Repaired = len(rs), len(pageSet), repaired
	if len(rs) == 0 {
		return nil, ErrNoRecords
	}
	if repaired > 0 {
		log.Warn("repaired record values (encoding, markup, control characters)", "values", repaired)
	}

	cands := baseCandidates(rs)
	s.Stats.Candidates = len(cands)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.SplitComposite {
		cands = splitCandidates(cands, rs, s.Joins, o)
		splitLists(cands, rs, s.Joins)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	filter(cands, rs, o)
	labelLeaves(cands, rs)
	cands = mergeNear(cands, rs, o)
	dropDuplicates(cands)
	for _, c := range cands {
		if c.dropped == "" {
			var all []string
			for _, v := range c.vals {
				all = append(all, v...)
			}
			c.typ, c.tshare, c.cur, c.dord = typeOf(all, o.TypeShare)
			if c.typ == TypeDate && yearOnly(all, c.dord) {
				c.typ = TypeYear
			}
		}
	}
	if in.Page != nil {
		if err := headerLabels(ctx, cands, recs, rs, in.Page, log); err != nil {
			return nil, err
		}
	}
	if s.Identity = learnIdentity(cands, rs); s.Identity != nil {
		markPerQuery(cands, rs, s.Identity)
		log.Info("records named by their link", "records", s.Identity.Records, "entities", s.Identity.Entities, "volatile_params", s.Identity.VolatileParams)
	}
	s.assemble(cands, rs, o)
	if in.Form != nil {
		s.lowInfo = lowInformation(s.Features, rs)
		s.mapOptions(*in.Form, rs, in.Probes, o)
		s.mapFromLog(*in.Form, rs, in.Probes, o)
		s.jointFromLog(*in.Form, rs, in.Probes)
		if in.Submitter != nil {
			sub := in.Submitter
			if len(s.Joins) > 0 {
				sub = joiningSubmitter{sub, s.Joins}
			}
			if err := s.resubmit(ctx, *in.Form, rs, in.Probes, sub, o); err != nil {
				return nil, err
			}
		}
		s.decideJointMappings(*in.Form, o)
		s.fieldLabels(*in.Form)
	}
	s.finalize()
	log.Info("output schema", "records", len(rs), "pages", len(pageSet), "candidates", s.Stats.Candidates, "features", len(s.Features), "mapped", len(s.Mapping))
	return s, nil
}

// baseCandidates groups leaves by path. A path that occurs a fixed number k ≥ 2 of times
// in most records is positional (k features: td, td, td); one that occurs a variable
// number of times is a list (one multi-valued feature); otherwise one feature.
func baseCandidates(rs []rec) []*cand {
	type pstat struct {
		counts map[int]int // occurrences per record → records
		first  int         // first record index seen, for a stable order
		attrs  map[string]bool
		idx    [][]int // per occurrence (1-based nth-1): leaf indexes
	}
	stats := map[string]*pstat{}
	var order []string
	for ri := range rs {
		per := map[string]int{}
		for li := range rs[ri].leaves {
			l := &rs[ri].leaves[li]
			st := stats[l.path]
			if st == nil {
				st = &pstat{counts: map[int]int{}, first: ri, attrs: map[string]bool{}}
				stats[l.path] = st
				order = append(order, l.path)
			}
			per[l.path]++
			for _, a := range []string{"", "href", "src", "alt"} {
				if l.value(a) != "" {
					st.attrs[a] = true
				}
			}
			for len(st.idx) < l.nth {
				st.idx = append(st.idx, nil)
			}
			st.idx[l.nth-1] = append(st.idx[l.nth-1], l.idx)
		}
		for p, c := range per {
			stats[p].counts[c]++
		}
	}
	var out []*cand
	for _, p := range order {
		st := stats[p]
		total, maxc, mode, modeN := 0, 0, 0, 0
		for c, n := range st.counts {
			total += n
			maxc = max(maxc, c)
			if n > modeN || n == modeN && c < mode {
				mode, modeN = c, n
			}
		}
		var nths []int
		multi := false
		switch {
		case maxc <= 1:
			nths = []int{1}
		case mode >= 2 && float64(modeN) >= 0.8*float64(total):
			for k := 1; k <= mode; k++ {
				nths = append(nths, k)
			}
		default:
			nths = []int{0}
			multi = true
		}
		for _, nth := range nths {
			var idxs []int
			if nth == 0 {
				idxs = st.idx[0]
			} else {
				idxs = st.idx[nth-1]
			}
			pos := median(idxs)
			for ai, a := range []string{"", "href", "src", "alt"} {
				if !st.attrs[a] {
					continue
				}
				c := &cand{locs: []Location{{Path: p, Nth: nth, Attr: a}}, multi: multi, pos: pos + 0.2*float64(ai)}
				c.vals = make([][]string, len(rs))
				for ri := range rs {
					c.vals[ri] = featureValues(c.locs, nil, &rs[ri])
				}
				if c.records() > 0 {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}

// splitCandidates replaces composite text candidates by their segments, recursively.
// The composite candidate itself is kept as dropped ("composite") for the record.
func splitCandidates(cands []*cand, rs []rec, joins []Join, o Options) []*cand {
	joined := map[string]bool{} // text cut around highlights: a snippet, never composite
	for _, j := range joins {
		joined[j.Path] = true
	}
	repeated := repeatedTexts(rs)
	var out []*cand
	var walk func(c *cand, depth int)
	walk = func(c *cand, depth int) {
		if c.multi || c.locs[0].Attr != "" || depth >= o.MaxSplitDepth || joined[c.locs[0].Path] || prose(c.vals) {
			out = append(out, c)
			return
		}
		in := make([]splitInput, 0, len(rs))
		for ri := range rs {
			v := ""
			if len(c.vals[ri]) > 0 {
				v = c.vals[ri][0]
			}
			in = append(in, splitInput{value: v, terms: rs[ri].terms, context: otherText(&rs[ri], v, repeated)})
		}
		markers := learnSplit(in, o)
		if markers == nil {
			out = append(out, c)
			return
		}
		children := splitInto(c, markers, rs)
		c.dropped = DropComposite
		out = append(out, c)
		for _, ch := range children {
			walk(ch, depth+1)
		}
	}
	for _, c := range cands {
		walk(c, 0)
	}
	return out
}

// otherText returns the text leaves of the record that do not hold v and whose text is
// not repeated across the records (repeated: template text such as "commitdiff" or "min
// ago", or a recurring value): the record's other running text, the background a
// template word must stand out from.
func otherText(r *rec, v string, repeated map[string]bool) []textLeaf {
	if v == "" {
		return nil
	}
	var out []textLeaf
	for i := range r.leaves {
		l := &r.leaves[i]
		if l.text == "" || repeated[l.text] || strings.Contains(l.text, v) {
			continue
		}
		out = append(out, textLeaf{l.path, l.text})
	}
	return out
}

// repeatedTexts returns the leaf texts found in at least a tenth of the records (and in
// two at least).
func repeatedTexts(rs []rec) map[string]bool {
	n := map[string]int{}
	for ri := range rs {
		seen := map[string]bool{}
		for i := range rs[ri].leaves {
			t := rs[ri].leaves[i].text
			if t != "" && !seen[t] {
				seen[t] = true
				n[t]++
			}
		}
	}
	out := map[string]bool{}
	for t, k := range n {
		if k >= 2 && 10*k >= len(rs) {
			out[t] = true
		}
	}
	return out
}

// splitInto cuts the values of c with the markers and returns one candidate per
// segment, in order of appearance, with the labels that separators give.
func splitInto(c *cand, markers []Marker, rs []rec) []*cand {
	type segStat struct {
		vals   [][]string
		idxSum float64
		n      int
		labels map[string]int
	}
	segs := map[string]*segStat{}
	seg := func(name string) *segStat {
		st := segs[name]
		if st == nil {
			st = &segStat{vals: make([][]string, len(rs)), labels: map[string]int{}}
			segs[name] = st
		}
		return st
	}
	sepSeen, sepEnds := map[string]int{}, map[string]int{}
	type unit struct{ sep, target string }
	var units []unit
	for ri := range rs {
		if len(c.vals[ri]) == 0 {
			continue
		}
		m := mask(c.vals[ri][0])
		for k, sg := range m.split(markers) {
			st := seg(sg.name)
			st.vals[ri] = []string{sg.text}
			st.idxSum += float64(k)
			st.n++
		}
		got := m.locate(markers)
		for k, f := range got {
			sep, ok := strings.CutPrefix(f.after, "sep:")
			if !ok {
				continue
			}
			sepSeen[sep]++
			after := strings.Trim(m.unmask(f.end, endOf(got, k, len(m.s))), edgeTrim)
			if after == "" && k+1 == len(got) {
				sepEnds[sep]++
			}
			// The segment before the separator: text, or the atom right before it.
			before, beforeName := "", "^"
			start := 0
			if k > 0 {
				start = got[k-1].end
				beforeName = got[k-1].after
			}
			before = strings.Trim(m.unmask(start, f.start), edgeTrim)
			if before == "" && k > 0 && got[k-1].name != "" {
				beforeName = got[k-1].name
			} else if before == "" {
				beforeName = ""
			}
			units = append(units, unit{sep, beforeName})
			if label, next, ok := sepLabel(sep, 0); ok && next {
				target := ""
				if after != "" {
					target = f.after
				} else if k+1 < len(got) && got[k+1].name != "" {
					target = got[k+1].name
				}
				if target != "" {
					seg(target).labels[label]++
				}
			}
		}
	}
	for _, u := range units {
		if u.target == "" || sepSeen[u.sep] == 0 {
			continue
		}
		if label, next, ok := sepLabel(u.sep, float64(sepEnds[u.sep])/float64(sepSeen[u.sep])); ok && !next {
			seg(u.target).labels[label]++
		}
	}
	names := make([]string, 0, len(segs))
	for n, st := range segs {
		if st.n > 0 {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := segs[a].idxSum/float64(segs[a].n), segs[b].idxSum/float64(segs[b].n)
		if ia != ib {
			return cmp.Compare(ia, ib)
		}
		return strings.Compare(a, b)
	})
	scale := math.Pow(0.1, float64(len(c.split)+1))
	out := make([]*cand, 0, len(names))
	for k, name := range names {
		st := segs[name]
		ch := &cand{
			locs:  c.locs,
			split: append(slices.Clone(c.split), SplitStep{Markers: markers, Segment: name}),
			vals:  st.vals,
			pos:   c.pos + scale*float64(k+1),
		}
		ch.labels = slices.Clone(c.labels)
		for _, l := range sortedCounts(st.labels) {
			ch.labels = append(ch.labels, Label{Text: l.key, Source: "prefix", Support: l.n})
		}
		out = append(out, ch)
	}
	return out
}

// splitLists makes the candidates whose values list several values in one text
// multi-valued (learnList). Snippets and prose are no lists.
func splitLists(cands []*cand, rs []rec, joins []Join) {
	for _, c := range cands {
		if c.dropped != "" || c.multi || c.locs[0].Attr != "" || prose(c.vals) || slices.ContainsFunc(joins, func(j Join) bool { return j.Path == c.locs[0].Path }) {
			continue
		}
		markers := learnList(c.vals)
		if markers == nil {
			continue
		}
		c.split = append(slices.Clone(c.split), SplitStep{Markers: markers, Segment: SegmentList})
		for ri := range rs {
			c.vals[ri] = featureValues(c.locs, c.split, &rs[ri])
		}
		c.multi = true
	}
}

// proseWords is the median number of words from which values are prose (sentences,
// excerpts) rather than fields: prose is never split into segments.
const proseWords = 15

// prose reports whether the median value of a candidate has proseWords words or more.
func prose(vals [][]string) bool {
	var words []int
	for _, v := range vals {
		if len(v) > 0 {
			words = append(words, len(strings.Fields(v[0])))
		}
	}
	return len(words) > 0 && median(words) >= proseWords
}

func endOf(got []found, k, n int) int {
	if k+1 < len(got) {
		return got[k+1].start
	}
	return n
}

type keyCount struct {
	key string
	n   int
}

// sortedCounts returns the entries of a count map, the largest count first, ties by key.
func sortedCounts(m map[string]int) []keyCount {
	out := make([]keyCount, 0, len(m))
	for k, n := range m {
		out = append(out, keyCount{k, n})
	}
	slices.SortFunc(out, func(a, b keyCount) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.key, b.key)
	})
	return out
}

var rankRe = regexp.MustCompile(`^#?(\d{1,6})[.):]?$`)

// filter marks the candidates that are not attributes: too sparse, constant (template
// text), constant within every page (query echo), or the record's rank.
func filter(cands []*cand, rs []rec, o Options) {
	minRecs := max(o.MinRecords, int(math.Ceil(o.MinRecordShare*float64(len(rs)))))
	for _, c := range cands {
		if c.dropped != "" {
			continue
		}
		n := c.records()
		if n < minRecs {
			c.dropped = DropSparse
			continue
		}
		counts := map[string]int{}
		pagesOf := map[string]map[string]bool{} // value → pages
		pages := map[string]bool{}
		for ri, v := range c.vals {
			seen := map[string]bool{}
			if len(v) > 0 {
				pages[rs[ri].page] = true
			}
			for _, x := range v {
				k := norm(x)
				if k == "" {
					k = x
				}
				if !seen[k] {
					seen[k] = true
					counts[k]++
					if pagesOf[k] == nil {
						pagesOf[k] = map[string]bool{}
					}
					pagesOf[k][rs[ri].page] = true
				}
			}
		}
		top, topKey := 0, ""
		for k, n := range counts {
			if n > top || n == top && k < topKey {
				top, topKey = n, k
			}
		}
		// Template text is the same on every page: one value, or a few variants with a
		// dominant one found on every page ("In stock" / "Out of stock"). A dominant
		// value absent from some pages (the language of a catalogue, and a page of
		// French books), or one beside many other values (a tag shared by most books),
		// is an attribute.
		if len(counts) <= 1 || float64(top) > o.MaxDominantShare*float64(n) && len(pagesOf[topKey]) == len(pages) && len(counts) <= 3 {
			c.dropped = DropConstant
			continue
		}
		if pageConstant(c, rs) {
			c.dropped = DropPageConstant
			continue
		}
		if c.locs[0].Attr == "" && echoed(c, rs) {
			c.dropped = DropEcho
			continue
		}
		if isRank(c, rs) {
			c.dropped = DropRank
		}
	}
}

// pageConstant reports whether the candidate has one value per page on every page with
// at least two records holding it, on at least two such pages: an echo of the query or
// of the page, not an attribute of the records.
func pageConstant(c *cand, rs []rec) bool {
	vals := map[string]map[string]bool{}
	count := map[string]int{}
	for ri, v := range c.vals {
		if len(v) == 0 {
			continue
		}
		p := rs[ri].page
		if vals[p] == nil {
			vals[p] = map[string]bool{}
		}
		vals[p][norm(strings.Join(v, " "))] = true
		count[p]++
	}
	pages := 0
	distinct := map[string]bool{}
	echo := 0
	for p, n := range count {
		if n < 2 {
			continue
		}
		if len(vals[p]) > 1 {
			return false
		}
		pages++
		for v := range vals[p] {
			distinct[v] = true
			if terms := termsOf(rs, p); len(terms) > 0 && allIn(terms, v) {
				echo++
			}
		}
	}
	// An echo changes with the page (its query): (almost) one value per page, or the
	// page's query terms in it. A homogeneous attribute (each page filtered on one
	// language) takes few values.
	return pages >= 2 && (float64(len(distinct)) >= 0.8*float64(pages) || float64(echo) >= 0.5*float64(pages))
}

// echoed reports whether the candidate's values are, in most records of probes with
// query terms, made only of those terms (or words of their stem) besides template
// words found in (almost) every value: the query's words highlighted or listed
// ("matching: index objects"), not an attribute of the records.
func echoed(c *cand, rs []rec) bool {
	df := map[string]int{}
	filled := 0
	for _, v := range c.vals {
		if len(v) == 0 {
			continue
		}
		filled++
		seen := map[string]bool{}
		for _, x := range v {
			for _, w := range textnorm.Tokens(x) {
				if !seen[w] {
					seen[w] = true
					df[w]++
				}
			}
		}
	}
	n, echo := 0, 0
	for ri, v := range c.vals {
		if len(v) == 0 || len(rs[ri].terms) == 0 {
			continue
		}
		n++
		words := 0
		all := true
		for _, x := range v {
			for _, w := range textnorm.Tokens(x) {
				if float64(df[w]) >= 0.9*float64(filled) {
					continue // a template word ("matching:")
				}
				words++
				all = all && termLike(w, rs[ri].terms)
			}
		}
		if all && words > 0 {
			echo++
		}
	}
	return n >= 3 && float64(echo) >= 0.8*float64(n)
}

// termsOf returns the query terms of the probe of a page.
func termsOf(rs []rec, page string) map[string]bool {
	for i := range rs {
		if rs[i].page == page {
			return rs[i].terms
		}
	}
	return nil
}

// allIn reports whether every term occurs as a word of the normalised value v.
func allIn(terms map[string]bool, v string) bool {
	words := " " + v + " "
	for t := range terms {
		if !strings.Contains(words, " "+t+" ") {
			return false
		}
	}
	return true
}

// isRank reports whether the candidate's values count the records of each page: 1, 2,
// 3 … (or 11, 12 … on a later page).
func isRank(c *cand, rs []rec) bool {
	prev := map[string]int{}
	first := map[string]int{}
	count := map[string]int{}
	pairs, steps := 0, 0
	for ri, v := range c.vals {
		if len(v) != 1 {
			continue
		}
		m := rankRe.FindStringSubmatch(v[0])
		if m == nil {
			return false
		}
		n, _ := strconv.Atoi(m[1])
		p := rs[ri].page
		if last, ok := prev[p]; ok {
			pairs++
			if n == last+1 {
				steps++
			}
		} else {
			first[p] = n
		}
		prev[p] = n
		count[p]++
	}
	if pairs < 2 || float64(steps) < 0.9*float64(pairs) {
		return false
	}
	// A rank starts at 1, or after the records of the previous pages (11 on a second
	// page of ten): consecutive numbers that start elsewhere are data (ages, years).
	for p, v := range first {
		if v != 1 && (count[p] < 2 || (v-1)%count[p] != 0) {
			return false
		}
	}
	return true
}

// labelLeaves turns constant leaves that look like labels ("Author:", a <th> or <dt>
// cell) into labels of the feature whose leaf follows them.
func labelLeaves(cands []*cand, rs []rec) {
	// Which kept feature reads a (path, nth) leaf first.
	type at struct {
		path string
		nth  int
	}
	reader := map[at]*cand{}
	for _, c := range cands {
		if c.dropped != "" || c.locs[0].Attr != "" {
			continue
		}
		l := c.locs[0]
		k := at{l.Path, l.Nth}
		if r := reader[k]; r == nil || c.pos < r.pos {
			reader[k] = c
		}
	}
	find := func(lf *leaf) *cand {
		if c := reader[at{lf.path, lf.nth}]; c != nil {
			return c
		}
		return reader[at{lf.path, 0}]
	}
	for _, c := range cands {
		if c.dropped != DropConstant || len(c.split) > 0 || c.locs[0].Attr != "" || c.multi {
			continue
		}
		label, ok := labelText(c)
		if !ok {
			continue
		}
		next := map[*cand]int{}
		occ := 0
		for ri := range rs {
			r := &rs[ri]
			for li := range r.leaves {
				lf := &r.leaves[li]
				if lf.path != c.locs[0].Path || c.locs[0].Nth != 0 && lf.nth != c.locs[0].Nth || lf.text == "" {
					continue
				}
				occ++
				if li+1 < len(r.leaves) {
					if t := find(&r.leaves[li+1]); t != nil {
						next[t]++
					}
				}
			}
		}
		var best *cand
		for t, n := range next {
			if best == nil || n > next[best] || n == next[best] && t.pos < best.pos {
				best = t
			}
		}
		if best != nil && float64(next[best]) >= 0.8*float64(occ) {
			best.labels = append(best.labels, Label{Text: label, Source: "prefix", Support: next[best]})
			c.dropped = DropLabel
		}
	}
}

var labelTags = map[string]bool{"th": true, "dt": true, "label": true, "b": true, "strong": true}

// labelText returns the label a constant leaf gives: text ending in ':' (or '='), or
// short text without digits in a th, dt, label, b or strong element.
func labelText(c *cand) (string, bool) {
	v := ""
	for _, x := range c.vals {
		if len(x) > 0 {
			v = x[0]
			break
		}
	}
	v = strings.TrimSpace(v)
	if v == "" || len([]rune(v)) > 40 || len(strings.Fields(v)) > 5 {
		return "", false
	}
	if t := strings.TrimRight(v, " :=："); t != v && t != "" {
		return t, true
	}
	if labelTags[lastTag(c.locs[0].Path)] && !strings.ContainsAny(v, "0123456789") {
		return strings.TrimSpace(v), true
	}
	return "", false
}

// lastTag returns the element name of the last step of a record-internal path.
func lastTag(path string) string {
	step := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		step = path[i+1:]
	}
	return stepTag(step)
}

func stepTag(step string) string {
	if i := strings.IndexAny(step, ".[#@"); i >= 0 {
		step = step[:i]
	}
	return strings.ToLower(step)
}

var inlineTags = map[string]bool{"a": true, "span": true, "b": true, "strong": true, "em": true, "i": true, "font": true, "small": true, "mark": true, "u": true, "abbr": true, "cite": true, "bdi": true, "time": true}

// pathsNear reports whether two record-internal paths differ by one step: the same tag
// with another class or position, two inline elements, or one inline element more.
func pathsNear(a, b string) bool {
	if a == b {
		return false
	}
	x, y := strings.Split(a, "/"), strings.Split(b, "/")
	if len(x) == len(y) {
		diff := -1
		for i := range x {
			if x[i] != y[i] {
				if diff >= 0 {
					return false
				}
				diff = i
			}
		}
		tx, ty := stepTag(x[diff]), stepTag(y[diff])
		return tx == ty || inlineTags[tx] && inlineTags[ty]
	}
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y) != len(x)+1 {
		return false
	}
	// y has one step more: find it and check that the rest is equal.
	for i := range y {
		if inlineTags[stepTag(y[i])] && slices.Equal(x, slices.Concat(y[:i], y[i+1:])) {
			return true
		}
	}
	return false
}

// mergeNear merges kept candidates that are the same attribute under slightly different
// paths: near paths, the same attribute and split segment, the same value type, and
// (almost) never both in one record.
func mergeNear(cands []*cand, rs []rec, o Options) []*cand {
	sameSplit := func(a, b []SplitStep) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i].Segment != b[i].Segment {
				return false
			}
		}
		return true
	}
	// The value type of each candidate, computed once (a merge changes only the
	// candidate merged into): typing every value again for every pair cost seconds on
	// a thousand records.
	types := map[*cand]ValueType{}
	typeOfCand := func(c *cand) ValueType {
		t, ok := types[c]
		if !ok {
			var vals []string
			for _, v := range c.vals {
				vals = append(vals, v...)
			}
			t, _, _, _ = typeOf(vals, o.TypeShare)
			types[c] = t
		}
		return t
	}
	for {
		var bestA, bestB *cand
		for _, a := range cands {
			if a.dropped != "" {
				continue
			}
			for _, b := range cands {
				if b == a || b.dropped != "" || len(a.locs) == 0 || len(b.locs) == 0 {
					continue
				}
				la, lb := a.locs[0], b.locs[0]
				if la.Attr != lb.Attr || !sameSplit(a.split, b.split) || a.multi != b.multi {
					continue
				}
				near := false
				for _, x := range a.locs {
					for _, y := range b.locs {
						if pathsNear(x.Path, y.Path) {
							near = true
						}
					}
				}
				if !near {
					continue
				}
				both, either := 0, 0
				for ri := range rs {
					ha, hb := len(a.vals[ri]) > 0, len(b.vals[ri]) > 0
					if ha && hb {
						both++
					}
					if ha || hb {
						either++
					}
				}
				if either == 0 || float64(both) > o.MaxMergeCooccurrence*float64(either) {
					continue
				}
				if typeOfCand(a) != typeOfCand(b) {
					continue
				}
				ra, rb := a.records(), b.records()
				if ra < rb || ra == rb && a.pos > b.pos {
					continue // merge into the larger one; visit each pair once
				}
				if bestA == nil {
					bestA, bestB = a, b
				}
			}
		}
		if bestA == nil {
			return cands
		}
		bestA.locs = append(bestA.locs, bestB.locs...)
		for ri := range rs {
			if len(bestA.vals[ri]) == 0 {
				bestA.vals[ri] = bestB.vals[ri]
			}
		}
		bestA.labels = append(bestA.labels, bestB.labels...)
		bestB.dropped = "merged"
		bestB.locs = nil
		delete(types, bestA)
	}
}

// dropDuplicates drops a candidate whose values equal an earlier one's in (almost) every
// record that has it: a link that wraps two leaves gives the same href twice, and a
// "Continue reading <title>" link repeats the title for screen readers.
func dropDuplicates(cands []*cand) {
	kept := make([]*cand, 0, len(cands))
	for _, c := range cands {
		if c.dropped == "" {
			kept = append(kept, c)
		}
	}
	slices.SortStableFunc(kept, func(a, b *cand) int { return cmp.Compare(a.pos, b.pos) })
	for i, b := range kept {
		for _, a := range kept[:i] {
			if a.dropped != "" {
				continue
			}
			same, has := 0, 0
			for ri := range a.vals {
				va, vb := a.vals[ri], b.vals[ri]
				if len(vb) == 0 {
					continue
				}
				has++
				if slices.Equal(va, vb) {
					same++
				}
			}
			if has > 0 && float64(same) >= 0.95*float64(has) {
				b.dropped = DropDuplicate
				break
			}
		}
	}
}
