package schema

import (
	"context"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// Fragmented text. A result page often cuts an element's text around the words the
// query matched: "…status lines for <span class=match>the</span> three records…", a
// snippet with the query terms in <strong>. Taken leaf by leaf, the element gives a
// variable number of fragments (a list feature of meaningless pieces) and the
// highlighted words (an echo of the query). Highlights are told apart by what they
// hold: the query terms of the probe whose page showed them, and nothing else. The
// element's value is then its text in one piece: its own fragments and the highlights
// between them, in document order. The rule is learnt per (element path, highlight
// step) and kept in schema.json (Schema.Joins), so every later reading of a record (the
// graph, re-submitted pages, which carry no query terms) joins the same way.

// Join is an element whose text is cut around highlighted words.
type Join struct {
	// Path is the element's record-internal path (its own text leaves have it).
	Path string `json:"path"`
	// Inline are the highlight steps below it, without their position
	// ("strong.search_hit"): leaves at Path/step[k] for any k are part of its text.
	Inline []string `json:"inline"`
}

// Least evidence for a highlight step: leaves seen, share holding only query terms,
// share next to a fragment of the element's own text.
const (
	minHighlights      = 3
	minHighlightEcho   = 0.6
	minHighlightBeside = 0.5
)

// learnJoins finds the elements whose text is cut around highlighted query terms, from
// the records of probes with known query terms.
func learnJoins(rs []rec) []Join {
	type key struct{ parent, step string }
	type stat struct{ total, echo, beside int }
	stats := map[key]*stat{}
	var order []key
	for ri := range rs {
		r := &rs[ri]
		if len(r.terms) == 0 {
			continue
		}
		for li := range r.leaves {
			lf := &r.leaves[li]
			if lf.text == "" {
				continue
			}
			parent, step := path.Split(lf.path)
			parent = strings.TrimSuffix(parent, "/")
			step = stepBase(step)
			if parent == "" || !inlineTags[stepTag(step)] {
				continue
			}
			k := key{parent, step}
			st := stats[k]
			if st == nil {
				st = &stat{}
				stats[k] = st
				order = append(order, k)
			}
			st.total++
			if echoes(lf.text, r.terms) {
				st.echo++
			}
			if li > 0 && r.leaves[li-1].path == parent || li+1 < len(r.leaves) && r.leaves[li+1].path == parent {
				st.beside++
			}
		}
	}
	byParent := map[string][]string{}
	var parents []string
	for _, k := range order {
		st := stats[k]
		if st.total < minHighlights || float64(st.echo) < minHighlightEcho*float64(st.total) || float64(st.beside) < minHighlightBeside*float64(st.total) {
			continue
		}
		if byParent[k.parent] == nil {
			parents = append(parents, k.parent)
		}
		byParent[k.parent] = append(byParent[k.parent], k.step)
	}
	slices.Sort(parents)
	var out []Join
	for _, p := range parents {
		steps := byParent[p]
		slices.Sort(steps)
		out = append(out, Join{Path: p, Inline: slices.Compact(steps)})
	}
	return out
}

// stepBase removes the position from a path step: "strong.hit[2]" → "strong.hit".
func stepBase(step string) string {
	if i := strings.LastIndexByte(step, '['); i > 0 && strings.HasSuffix(step, "]") {
		return step[:i]
	}
	return step
}

// echoes reports whether every word of text is one of the query terms, or shares its
// stem with one ("Commands" for "command", "files" for "file"): a highlighted echo of
// the query.
func echoes(text string, terms map[string]bool) bool {
	words := textnorm.Tokens(text)
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if !termLike(w, terms) {
			return false
		}
	}
	return true
}

// termLike reports whether w is a query term or one is the other plus a short ending.
func termLike(w string, terms map[string]bool) bool {
	if terms[w] {
		return true
	}
	for t := range terms {
		a, b := w, t
		if len(a) > len(b) {
			a, b = b, a
		}
		if utf8.RuneCountInString(a) >= 3 && strings.HasPrefix(b, a) && utf8.RuneCountInString(b)-utf8.RuneCountInString(a) <= 3 {
			return true
		}
	}
	return false
}

// joinRecord returns the record with the fragments of each joined element, and the
// highlights between them, made one leaf at the element's path. Records without such
// fragments are returned as they are.
func joinRecord(r records.Record, joins []Join) records.Record {
	if len(joins) == 0 {
		return r
	}
	inline := map[string]map[string]bool{}
	for _, j := range joins {
		m := map[string]bool{}
		for _, s := range j.Inline {
			m[s] = true
		}
		inline[j.Path] = m
	}
	// part returns the element a leaf belongs to as a fragment or a highlight, and
	// whether it is the element's own text.
	part := func(l records.Leaf) (string, bool) {
		p := strings.TrimSpace(l.Path)
		if l.Text == "" {
			return "", false
		}
		if _, ok := inline[p]; ok {
			return p, true
		}
		parent, step := path.Split(p)
		parent = strings.TrimSuffix(parent, "/")
		if inline[parent][stepBase(step)] {
			return parent, false
		}
		return "", false
	}
	var out []records.Leaf
	changed := false
	for i := 0; i < len(r.Leaves); {
		el, _ := part(r.Leaves[i])
		if el == "" {
			out = append(out, r.Leaves[i])
			i++
			continue
		}
		j, own := i, 0
		var texts []string
		for ; j < len(r.Leaves); j++ {
			e, isOwn := part(r.Leaves[j])
			if e != el {
				break
			}
			if isOwn {
				own++
			}
			texts = append(texts, r.Leaves[j].Text)
		}
		if own == 0 || j-i == 1 {
			out = append(out, r.Leaves[i:j]...)
			i = j
			continue
		}
		first := r.Leaves[i]
		for _, l := range r.Leaves[i:j] {
			if strings.TrimSpace(l.Path) == el {
				first = l
				break
			}
		}
		out = append(out, records.Leaf{Path: el, Text: joinText(texts), Href: first.Href})
		changed = true
		i = j
	}
	if !changed {
		return r
	}
	r.Leaves = out
	return r
}

// joinText joins text fragments with one space, without a space before closing
// punctuation or after an opening bracket, a hyphen, a slash or an apostrophe (a
// highlight inside "dpkg-dev" or "h/forms"). The leaves carry no white space, so a
// highlight inside a word ("form" in "forms") is read as a word of its own.
func joinText(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			last, _ := utf8.DecodeLastRuneInString(b.String())
			first, _ := utf8.DecodeRuneInString(p)
			if !strings.ContainsRune(",.;:!?)]}…", first) && !strings.ContainsRune("([{-/_'’", last) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(p)
	}
	return b.String()
}

// joinRecords applies the joins to every record.
func joinRecords(recs []records.Record, joins []Join) []records.Record {
	if len(joins) == 0 {
		return recs
	}
	out := make([]records.Record, len(recs))
	for i, r := range recs {
		out[i] = joinRecord(r, joins)
	}
	return out
}

// joiningSubmitter joins the fragments of the records of re-submitted pages as the
// schema does.
type joiningSubmitter struct {
	sub   Submitter
	joins []Join
}

func (j joiningSubmitter) Submit(ctx context.Context, values map[string]string) ([]records.Record, error) {
	recs, err := j.sub.Submit(ctx, values)
	return joinRecords(recs, j.joins), err
}
