package records

import (
	"slices"
	"strings"
)

// Records that span sibling elements (forest.md §9.2.7): a <dt> and its <dd>, a heading
// and the block after it, a row of a table and the row that continues it. One element
// type cannot express them. When, between the consecutive records of a selected
// pattern, the same run of sibling types with content comes back (≥ siblingAgreement of
// the gaps) and the same run also sits before the first record or after the last one,
// the run belongs to the records: before them (a heading) or after them (a
// continuation). A run found only between records is a separator and is left out.

// siblingAgreement is the share of record gaps that must hold the same run.
const siblingAgreement = 0.8

// siblingRun is the run of sibling types attached to each record of a pattern.
type siblingRun struct {
	types  []string
	before bool // the run precedes the record (else it follows it)
}

// siblingKey is the type of a sibling in a run: tag and tolerant class.
func siblingKey(p *page, e int32) string { return p.pathStep(e) }

// gapsOf returns, for each list of pt on each page, the content siblings between
// consecutive members, before the first and after the last.
func learnSiblings(samples []*sample, pt *pattern) *siblingRun {
	counts := map[string]int{}
	var gaps int
	lead := map[string]int{}
	trail := map[string]int{}
	lists := 0
	for _, l := range pt.lists {
		p := samples[l.page].p
		kids := p.kids(l.parent)
		pos := map[int32]int{}
		for i, k := range kids {
			pos[k] = i
		}
		members := slices.Clone(l.members)
		slices.Sort(members)
		run := func(from, to int) string {
			var ts []string
			for i := from; i < to; i++ {
				k := kids[i]
				if p.elems[k].skipped || p.elems[k].leafEnd == p.elems[k].leafStart {
					continue
				}
				ts = append(ts, siblingKey(p, k))
			}
			return strings.Join(ts, " ")
		}
		for i := 0; i+1 < len(members); i++ {
			gaps++
			counts[run(pos[members[i]]+1, pos[members[i+1]])]++
		}
		lists++
		lead[run(0, pos[members[0]])]++
		trail[run(pos[members[len(members)-1]]+1, len(kids))]++
	}
	if gaps == 0 {
		return nil
	}
	best, n := "", 0
	for k, c := range counts {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	if best == "" || float64(n) < siblingAgreement*float64(gaps) {
		return nil
	}
	types := strings.Fields(best)
	switch {
	case float64(lead[best]) >= siblingAgreement*float64(lists) || endsWith(lead, best, lists):
		return &siblingRun{types: types, before: true}
	case float64(trail[best]) >= siblingAgreement*float64(lists) || startsWith(trail, best, lists):
		return &siblingRun{types: types}
	}
	return nil
}

// endsWith reports whether most lead runs end with run (a page heading may come
// before the first record's own heading).
func endsWith(lead map[string]int, run string, lists int) bool {
	n := 0
	for k, c := range lead {
		if k == run || strings.HasSuffix(k, " "+run) {
			n += c
		}
	}
	return float64(n) >= siblingAgreement*float64(lists)
}

// startsWith reports whether most trail runs start with run (a pager may follow the
// last record's continuation).
func startsWith(trail map[string]int, run string, lists int) bool {
	n := 0
	for k, c := range trail {
		if k == run || strings.HasPrefix(k, run+" ") {
			n += c
		}
	}
	return float64(n) >= siblingAgreement*float64(lists)
}

// attach returns, for each record, the sibling elements of its run in document order,
// and the record's first element (the run's first element when it precedes).
func (r *siblingRun) attach(p *page, recs []int32) (firsts []int32, extra [][]int32) {
	firsts = slices.Clone(recs)
	extra = make([][]int32, len(recs))
	if r == nil {
		return firsts, extra
	}
	isRec := map[int32]bool{}
	for _, e := range recs {
		isRec[e] = true
	}
	for i, e := range recs {
		par := p.elems[e].parent
		if par < 0 {
			continue
		}
		kids := p.kids(par)
		at := slices.Index(kids, e)
		var got []int32
		step := 1
		if r.before {
			step = -1
		}
		j := at + step
		for range r.types {
			for j >= 0 && j < len(kids) && !isRec[kids[j]] && (p.elems[kids[j]].skipped || p.elems[kids[j]].leafEnd == p.elems[kids[j]].leafStart) {
				j += step
			}
			if j < 0 || j >= len(kids) || isRec[kids[j]] {
				break
			}
			idx := len(r.types) - 1 - len(got)
			if !r.before {
				idx = len(got)
			}
			if siblingKey(p, kids[j]) != r.types[idx] {
				break
			}
			got = append(got, kids[j])
			j += step
		}
		if len(got) != len(r.types) {
			continue // this record lacks the run: keep it alone
		}
		if r.before {
			slices.Reverse(got)
			firsts[i] = got[0]
			extra[i] = append(got[1:], e)
		} else {
			extra[i] = got
		}
	}
	return firsts, extra
}

func (r *siblingRun) String() string {
	if r == nil {
		return ""
	}
	where := "following"
	if r.before {
		where = "preceding"
	}
	return where + " siblings " + strings.Join(r.types, " ")
}
