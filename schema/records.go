package schema

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// rec is a record prepared for alignment: cleaned leaves with their occurrence numbers,
// and the probe whose page held it.
type rec struct {
	page   string
	probe  int
	terms  map[string]bool // folded words typed into the form by that probe
	leaves []leaf
	// splits memoises the segments of the record's composite values per split step
	// (values are read many times: alignment, mapping trials, the graph).
	splits map[string][]segment
}

// segmentOf returns the named segment of value under the step, memoised per record.
func (r *rec) segmentOf(st SplitStep, value string) string {
	key := st.markerKey() + "\x00" + value
	segs, ok := r.splits[key]
	if !ok {
		segs = applySplit(value, st.Markers)
		if r.splits == nil {
			r.splits = map[string][]segment{}
		}
		r.splits[key] = segs
	}
	for _, sg := range segs {
		if sg.name == st.Segment {
			return sg.text
		}
	}
	return ""
}

type leaf struct {
	path                 string
	text, href, src, alt string
	nth                  int // 1-based occurrence among the record's leaves with this path
	idx                  int // position in the record
}

// value returns the leaf's value for an attribute ("" = text).
func (l *leaf) value(attr string) string {
	switch attr {
	case "":
		return l.text
	case "href":
		return l.href
	case "src":
		return l.src
	case "alt":
		return l.alt
	}
	return ""
}

// prepare cleans the records' leaves. It returns the number of values repaired.
func prepare(in []records.Record, pages map[string]probeOf) ([]rec, int) {
	out := make([]rec, len(in))
	repaired := 0
	for i, r := range in {
		pr := lookupPage(pages, r.Page)
		out[i] = rec{page: r.Page, probe: pr.n, terms: pr.terms}
		counts := map[string]int{}
		for _, l := range r.Leaves {
			c := func(s string) string {
				v, rep := Clean(s)
				if rep {
					repaired++
				}
				return v
			}
			path := strings.TrimSpace(l.Path)
			if p, rep := Clean(path); rep {
				path = p
				repaired++
			}
			lv := leaf{path: path, text: c(l.Text), href: c(l.Href), src: c(l.Src), alt: c(l.Alt)}
			if lv.text == "" && lv.href == "" && lv.src == "" && lv.alt == "" {
				continue
			}
			counts[path]++
			lv.nth = counts[path]
			lv.idx = len(out[i].leaves)
			out[i].leaves = append(out[i].leaves, lv)
		}
	}
	return out, repaired
}

// probeOf is the probe a page belongs to.
type probeOf struct {
	n     int
	terms map[string]bool
}

// pageIndex maps the page files (and URLs) of the probe log to their probe.
func pageIndex(probes []rundir.Probe) map[string]probeOf {
	idx := map[string]probeOf{}
	for _, p := range probes {
		terms := map[string]bool{}
		for _, t := range p.Terms {
			for _, w := range textnorm.Tokens(t) {
				terms[w] = true
			}
		}
		if len(p.Terms) == 0 {
			for _, v := range p.Assignment {
				for _, w := range textnorm.Tokens(v) {
					terms[w] = true
				}
			}
		}
		po := probeOf{n: p.N, terms: terms}
		for _, pg := range p.Pages {
			if pg.File != "" {
				idx[filepath.ToSlash(filepath.Clean(pg.File))] = po
			}
			if pg.URL != "" {
				if _, ok := idx[pg.URL]; !ok {
					idx[pg.URL] = po
				}
			}
		}
	}
	return idx
}

func lookupPage(idx map[string]probeOf, page string) probeOf {
	if page == "" || len(idx) == 0 {
		return probeOf{}
	}
	if po, ok := idx[page]; ok {
		return po
	}
	p := filepath.ToSlash(filepath.Clean(page))
	if po, ok := idx[p]; ok {
		return po
	}
	// A page given as an absolute or differently rooted path: match on the suffix.
	keys := make([]string, 0, len(idx))
	for k := range idx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if strings.HasSuffix(p, "/"+k) {
			return idx[k]
		}
	}
	return probeOf{}
}

// read returns the values of a location in a record. A text without a letter or a
// digit ("…", "-", "|") is a placeholder or punctuation, no value.
func (l Location) read(r *rec, out []string) []string {
	for i := range r.leaves {
		lf := &r.leaves[i]
		if lf.path != l.Path || l.Nth != 0 && lf.nth != l.Nth {
			continue
		}
		v := lf.value(l.Attr)
		if v == "" || l.Attr == "" && strings.IndexFunc(v, isWordRune) < 0 {
			continue
		}
		out = append(out, v)
	}
	return out
}

// values returns the values of a feature with these locations and split steps in a
// record, without duplicates, in document order.
func featureValues(locs []Location, split []SplitStep, r *rec) []string {
	var raw []string
	for _, l := range locs {
		raw = l.read(r, raw)
	}
	if len(split) > 0 {
		vals := raw[:0:0]
		for _, v := range raw {
			cur := []string{v}
			for _, st := range split {
				var next []string
				for _, x := range cur {
					if st.Segment == SegmentList {
						next = append(next, splitList(x, st.Markers)...)
					} else if y := r.segmentOf(st, x); y != "" {
						next = append(next, y)
					}
				}
				if cur = next; len(cur) == 0 {
					break
				}
			}
			vals = append(vals, cur...)
		}
		raw = vals
	}
	if len(raw) > 1 {
		seen := map[string]bool{}
		out := raw[:0]
		for _, v := range raw {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
		raw = out
	}
	return raw
}

// Values returns the values of each feature (in schema order) in a record: what the
// labeled graph writes. Values are cleaned as during alignment.
func (s *Schema) Values(r records.Record) [][]string {
	rs, _ := prepare([]records.Record{joinRecord(r, s.Joins)}, nil)
	out := make([][]string, len(s.Features))
	for i := range s.Features {
		f := &s.Features[i]
		out[i] = featureValues(f.Locations, f.Split, &rs[0])
	}
	return out
}

// IdentityText returns the text that identifies a record within its source: the
// cleaned text of its leaves in document order, joined by spaces, without the leaves at
// volatile locations (rank, query echo). Links are left out: they often carry session
// or query parameters. The same record found by two probes has the same identity text.
func (s *Schema) IdentityText(r records.Record) string {
	rs, _ := prepare([]records.Record{joinRecord(r, s.Joins)}, nil)
	var b strings.Builder
	for i := range rs[0].leaves {
		lf := &rs[0].leaves[i]
		volatile := false
		for _, l := range s.Volatile {
			if l.Path == lf.path && (l.Nth == 0 || l.Nth == lf.nth) && l.Attr == "" {
				volatile = true
				break
			}
		}
		t := lf.text
		if t == "" {
			t = lf.alt
		}
		if volatile || t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}
