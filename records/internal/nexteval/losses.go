package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/antchfx/htmlquery"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// The loss analysis (-losses): where a page's F1 below 1 comes from, in records. The
// predicted and the true records are gathered into lists (the records under one
// parent element), and every list falls into one of four kinds of loss:
//
//	a  a predicted list that shares text with a true list but whose records are cut
//	   differently: too big or too small, split, extra items (headers, footers) or
//	   items missing at its ends, or boundaries off by some leaves
//	b  a true list no predicted record touches (missed)
//	c  a predicted list no true record touches (taken wrongly)
//	d  annotation the policy cannot or will not meet: true records in page chrome
//	   (nav, header, footer, dialog and their roles) and true records whose text is
//	   that of another true record (a wrapper and its only child listed as two)
//
// Fixing a kind is an edit of the prediction or the truth (a: the touched predicted
// lists replaced by their true lists; b: the missed true records added; c: the wrong
// lists removed; d: the odd true records removed); with all four the page scores 1.
// The page's loss 1 − F1 is shared among the kinds by their Shapley values over the
// 24 orders of the four edits, so the shares add up to the loss.

// lossKinds names the kinds in the order of the table.
var lossKinds = []string{"a", "b", "c", "d"}

// pageLoss is the analysis of one page.
type pageLoss struct {
	Page string
	Fold int
	F    float64
	// Share is the loss of each kind (Shapley value), Recs the records of each kind:
	// for a, the predicted records of the touched lists not matched one to one with
	// Jaccard 1; for b, the true records missed; for c, the predicted records taken
	// wrongly; for d, the odd true records.
	Share [4]float64
	Recs  [4]int
	// Cuts describes the granularity of the lists of kind a, Odd the predicted
	// records of kind a that match no true record exactly (XPath and text).
	Cuts, Odd []string
	// Lists names the lists of kinds b and c (count, parent XPath, first record's text).
	Lists []string
	// Missed splits the lists of kind b by what became of them in candidate generation
	// (missedKinds): the lists, their records and the page's share of kind b in
	// proportion to the records. Known only with the candidates' cover.
	Missed [3]missedSplit
}

// missedSplit counts missed lists of one kind of candidate cover.
type missedSplit struct {
	Lists, Recs int
	Share       float64
}

// missedKinds names the ways a true list is missed: no candidate pattern yields most
// of its records (not generated), a candidate pattern does but the list model gives it
// less than the threshold (scored low), or it gives it the threshold or more and the
// selection still leaves it out (overlap with a better pattern, or the features of the
// pages extracted together differ from those of the examples).
var missedKinds = []string{"not generated", "scored low", "scored high"}

// missedKind sorts a missed true list by the cover of its records: the probability of
// the best candidate pattern that yields each (-1: none).
func missedKind(recs []int, cover []float64, threshold float64) (int, float64) {
	gen, best := 0, -1.0
	for _, j := range recs {
		if cover[j] >= 0 {
			gen++
			best = max(best, cover[j])
		}
	}
	switch {
	case 2*gen < len(recs):
		return 0, best
	case best < threshold:
		return 1, best
	}
	return 2, best
}

// recList is a list of records (indices into a page's predicted or true records).
type recList struct {
	parent string
	recs   []int
}

// listsOf gathers records under the parent of their first XPath.
func listsOf(recs [][]string) []recList {
	idx := map[string]int{}
	var out []recList
	for i, r := range recs {
		p := r[0]
		if k := strings.LastIndexByte(p, '/'); k > 0 {
			p = p[:k]
		}
		k, ok := idx[p]
		if !ok {
			k = len(out)
			idx[p] = k
			out = append(out, recList{parent: p})
		}
		out[k].recs = append(out[k].recs, i)
	}
	return out
}

// touches reports whether any record of a shares a unit with any record of b.
func touches(a, b []map[string]bool) bool {
	for _, x := range a {
		for _, y := range b {
			for k := range x {
				if y[k] {
					return true
				}
			}
		}
	}
	return false
}

// pick returns the sets of the indices.
func pick(sets []map[string]bool, idx []int) []map[string]bool {
	out := make([]map[string]bool, len(idx))
	for i, k := range idx {
		out[i] = sets[k]
	}
	return out
}

// inChromeNode reports whether the element an XPath selects lies in page chrome.
func inChromeNode(doc *html.Node, xp string) bool {
	n, err := htmlquery.Query(doc, xp)
	if err != nil || n == nil {
		return false
	}
	for ; n != nil; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "nav", "header", "footer", "dialog", "menu":
			return true
		}
		for _, a := range n.Attr {
			if a.Key == "role" {
				switch strings.ToLower(strings.TrimSpace(a.Val)) {
				case "navigation", "menu", "menubar", "banner", "contentinfo", "dialog", "alertdialog", "tablist":
					return true
				}
			}
		}
	}
	return false
}

// analyseLoss classifies the loss of one page.
// cover is the candidate cover of the true records (ListExamples.TruthCover; nil:
// unknown), threshold the probability at which the list model takes a pattern.
func analyseLoss(p *benchmark.Page, fold int, pred [][]string, cover []float64, threshold float64) (pageLoss, error) {
	doc, err := html.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return pageLoss{}, fmt.Errorf("%s: %w", p.Name(), err)
	}
	keys := benchmark.Keys(doc)
	ps, ts := benchmark.Records(keys, pred), benchmark.Records(keys, p.Truth)
	out := pageLoss{Page: p.Name(), Fold: fold, F: benchmark.Overlap(ps, ts).F}

	// d: odd true records
	odd := make([]bool, len(ts))
	for j := range ts {
		if inChromeNode(doc, p.Truth[j][0]) {
			odd[j] = true
			continue
		}
		for k := range j {
			if !odd[k] && len(ts[j]) > 0 && benchmark.Jaccard(ts[j], ts[k]) == 1 {
				odd[j] = true
				break
			}
		}
	}
	for j := range ts {
		if odd[j] {
			out.Recs[3]++
		}
	}

	pl, tl := listsOf(pred), listsOf(p.Truth)
	// true lists of the odd records left out
	var tlD []recList
	for _, l := range tl {
		var keep []int
		for _, j := range l.recs {
			if !odd[j] {
				keep = append(keep, j)
			}
		}
		if len(keep) > 0 {
			tlD = append(tlD, recList{l.parent, keep})
		}
	}
	// which lists touch
	touchedP := make([]bool, len(pl))
	touchedT := make([]bool, len(tlD))
	touch := make([][]bool, len(pl))
	for i, a := range pl {
		touch[i] = make([]bool, len(tlD))
		for j, b := range tlD {
			if touches(pick(ps, a.recs), pick(ts, b.recs)) {
				touch[i][j], touchedP[i], touchedT[j] = true, true, true
			}
		}
	}
	var wrong, missed []int // c: predicted records, b: true records
	for i, l := range pl {
		if !touchedP[i] {
			wrong = append(wrong, l.recs...)
			out.Lists = append(out.Lists, fmt.Sprintf("c: %d × %s %s", len(l.recs), l.parent, textOf(doc, pred[l.recs[0]][0])))
		}
	}
	for j, l := range tlD {
		if !touchedT[j] {
			missed = append(missed, l.recs...)
			how := ""
			if cover != nil {
				k, best := missedKind(l.recs, cover, threshold)
				out.Missed[k].Lists++
				out.Missed[k].Recs += len(l.recs)
				how = fmt.Sprintf(" [%s, p %.2f]", missedKinds[k], best)
			}
			out.Lists = append(out.Lists, fmt.Sprintf("b: %d × %s %s%s", len(l.recs), l.parent, textOf(doc, p.Truth[l.recs[0]][0]), how))
		}
	}
	out.Recs[1], out.Recs[2] = len(missed), len(wrong)
	// a: the touched predicted lists and the true lists they touch
	var cutP, cutT []int
	for i, l := range pl {
		if !touchedP[i] {
			continue
		}
		cutP = append(cutP, l.recs...)
		var tr []int
		for j, b := range tlD {
			if touch[i][j] {
				tr = append(tr, b.recs...)
			}
		}
		out.Cuts = append(out.Cuts, describeCut(pick(ps, l.recs), pick(ts, tr)))
	}
	for j, l := range tlD {
		if touchedT[j] {
			cutT = append(cutT, l.recs...)
		}
	}
	slices.Sort(cutT)
	cutT = slices.Compact(cutT)
	for _, i := range cutP {
		if !slices.ContainsFunc(cutT, func(j int) bool { return benchmark.Jaccard(ps[i], ts[j]) == 1 }) {
			out.Recs[0]++
			out.Odd = append(out.Odd, pred[i][0]+" "+textOf(doc, pred[i][0]))
		}
	}

	// the F1 after a subset of the edits (bit 0: a, 1: b, 2: c, 3: d)
	inSet := func(xs []int) map[int]bool {
		m := map[int]bool{}
		for _, x := range xs {
			m[x] = true
		}
		return m
	}
	isCutP, isWrong := inSet(cutP), inSet(wrong)
	f := func(mask int) float64 {
		var pr, tr []map[string]bool
		for i := range ps {
			if (mask&1 != 0 && isCutP[i]) || (mask&4 != 0 && isWrong[i]) {
				continue
			}
			pr = append(pr, ps[i])
		}
		if mask&1 != 0 {
			for _, j := range cutT {
				pr = append(pr, ts[j])
			}
		}
		if mask&2 != 0 {
			for _, j := range missed {
				pr = append(pr, ts[j])
			}
		}
		for j := range ts {
			if mask&8 == 0 || !odd[j] {
				tr = append(tr, ts[j])
			}
		}
		return benchmark.Overlap(pr, tr).F
	}
	val := make([]float64, 16)
	for m := range val {
		val[m] = f(m)
	}
	// Shapley value: the mean over orders of the gain of adding kind k
	fact := []float64{1, 1, 2, 6, 24}
	for k := range 4 {
		for m := range 16 {
			if m&(1<<k) != 0 {
				continue
			}
			s := popcount(m)
			w := fact[s] * fact[3-s] / fact[4]
			out.Share[k] += w * (val[m|1<<k] - val[m])
		}
	}
	for k := range out.Missed {
		if len(missed) > 0 {
			out.Missed[k].Share = out.Share[1] * float64(out.Missed[k].Recs) / float64(len(missed))
		}
	}
	return out, nil
}

// textOf returns the first 60 characters of the text of the element at xp, quoted.
func textOf(doc *html.Node, xp string) string {
	n, err := htmlquery.Query(doc, xp)
	if err != nil || n == nil {
		return "(not found)"
	}
	t := strings.Join(strings.Fields(htmlquery.InnerText(n)), " ")
	if r := []rune(t); len(r) > 60 {
		t = string(r[:60]) + "…"
	}
	return strconv.Quote(t)
}

func popcount(m int) int {
	n := 0
	for ; m > 0; m &= m - 1 {
		n++
	}
	return n
}

// describeCut says how a predicted list's records are cut against the true records it
// touches: counts, records matched exactly, merged (one predicted record over several
// true ones), split (one true record over several predicted ones), extra (predicted
// records touching no true one) and missing (true records no predicted one touches).
func describeCut(pr, tr []map[string]bool) string {
	exact, merged, extra := 0, 0, 0
	cover := make([]int, len(tr))
	for _, x := range pr {
		n, ex := 0, false
		for j, y := range tr {
			if touches([]map[string]bool{x}, []map[string]bool{y}) {
				n++
				cover[j]++
				if benchmark.Jaccard(x, y) == 1 {
					ex = true
				}
			}
		}
		switch {
		case ex:
			exact++
		case n == 0:
			extra++
		case n > 1:
			merged++
		}
	}
	split, missing := 0, 0
	for _, c := range cover {
		switch {
		case c == 0:
			missing++
		case c > 1:
			split++
		}
	}
	return fmt.Sprintf("%d/%d exact %d merged %d split %d extra %d missing %d", len(pr), len(tr), exact, merged, split, extra, missing)
}

// printLosses writes the analysis of the n pages with the largest loss and the totals
// over all pages (the mean loss of each kind over the pages, which add up to 1 − mean
// F1).
func printLosses(w io.Writer, all []pageLoss, n int, verbose bool) {
	slices.SortStableFunc(all, func(a, b pageLoss) int {
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		}
		return 0
	})
	fmt.Fprintf(w, "\nloss by kind (a cut, b missed, c wrong, d annotation), Shapley shares of 1 − F1; records of each kind\n")
	fmt.Fprintf(w, "%-18s %4s %6s %6s %6s %6s %6s  %5s %5s %5s %5s  %s\n", "page", "fold", "F1", "a", "b", "c", "d", "#a", "#b", "#c", "#d", "lists of kind a (pred/true …)")
	var top, tot [4]float64
	var topR, totR [4]int
	beyond := false
	for i, l := range all {
		for k := range 4 {
			tot[k] += l.Share[k]
			totR[k] += l.Recs[k]
			if i < n {
				top[k] += l.Share[k]
				topR[k] += l.Recs[k]
			}
		}
		if i < n || l.Share[0] >= 0.005 {
			if i >= n && !beyond {
				beyond = true
				fmt.Fprintf(w, "pages beyond the %d worst with a loss of kind a:\n", n)
			}
			fmt.Fprintf(w, "%-18s %4d %6.3f %6.3f %6.3f %6.3f %6.3f  %5d %5d %5d %5d  %s\n", l.Page, l.Fold, l.F,
				l.Share[0], l.Share[1], l.Share[2], l.Share[3], l.Recs[0], l.Recs[1], l.Recs[2], l.Recs[3], strings.Join(l.Cuts, "; "))
			if verbose {
				for _, o := range l.Odd {
					fmt.Fprintf(w, "    a: %s\n", o)
				}
				for _, o := range l.Lists {
					fmt.Fprintf(w, "    %s\n", o)
				}
			}
		}
	}
	pages := float64(len(all))
	var ms [3]missedSplit
	for _, l := range all {
		for k := range ms {
			ms[k].Lists += l.Missed[k].Lists
			ms[k].Recs += l.Missed[k].Recs
			ms[k].Share += l.Missed[k].Share
		}
	}
	if ms[0].Lists+ms[1].Lists+ms[2].Lists > 0 {
		fmt.Fprintf(w, "lists of kind b by candidate cover (lists, records, share of mean F1):")
		for k, m := range ms {
			fmt.Fprintf(w, " %s %d %d %.4f;", missedKinds[k], m.Lists, m.Recs, m.Share/pages)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "sum over the %d worst pages: a %.3f b %.3f c %.3f d %.3f (records %d %d %d %d)\n", min(n, len(all)),
		top[0], top[1], top[2], top[3], topR[0], topR[1], topR[2], topR[3])
	fmt.Fprintf(w, "mean over %d pages (share of 1 − mean F1): a %.4f b %.4f c %.4f d %.4f (records %d %d %d %d)\n", len(all),
		tot[0]/pages, tot[1]/pages, tot[2]/pages, tot[3]/pages, totR[0], totR[1], totR[2], totR[3])
}
