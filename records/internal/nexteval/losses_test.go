package main

import (
	"math"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

// TestAnalyseLoss builds one page with a loss of every kind and checks that each is
// found, with its records, and that the shares add up to 1 − F1.
func TestAnalyseLoss(t *testing.T) {
	page := `<html><body>
<nav><ul><li>Home</li><li>Help</li></ul></nav>
<ul><li><span>Bleak House</span> <span>1853</span></li><li><span>Emma</span> <span>1815</span></li><li><span>Middlemarch</span> <span>1872</span></li></ul>
<ol><li>Kyoto</li><li>Nara</li></ol>
<div><p>Sponsored one</p><p>Sponsored two</p></div>
<section><div><p>Only child</p></div></section>
</body></html>`
	li := func(list string, i int) []string {
		return []string{"/html[1]/body[1]/" + list + "/li[" + string(rune('0'+i)) + "]"}
	}
	truth := [][]string{
		li("nav[1]/ul[1]", 1), li("nav[1]/ul[1]", 2), // d: page chrome
		li("ul[1]", 1), li("ul[1]", 2), li("ul[1]", 3), // a: cut wrongly below
		li("ol[1]", 1), li("ol[1]", 2), // b: missed
		{"/html[1]/body[1]/section[1]/div[1]"}, {"/html[1]/body[1]/section[1]/div[1]/p[1]"}, // d: wrapper and its only child
	}
	pred := [][]string{
		li("ul[1]", 1),                                                                     // exact
		{"/html[1]/body[1]/ul[1]/li[2]/span[1]"}, {"/html[1]/body[1]/ul[1]/li[2]/span[2]"}, // li[2] split in two
		li("ul[1]", 3),
		{"/html[1]/body[1]/div[1]/p[1]"}, {"/html[1]/body[1]/div[1]/p[2]"}, // c: taken wrongly
		{"/html[1]/body[1]/section[1]/div[1]"},
	}
	p := &benchmark.Page{Set: "s", N: 1, HTML: []byte(page), Truth: truth}
	// the missed ol's records are yielded by a candidate the model scores low
	cover := []float64{0.9, 0.9, 0.8, -1, 0.8, 0.3, 0.2, -1, -1}
	l, err := analyseLoss(p, 0, pred, cover, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if m := l.Missed; m[0].Lists != 0 || m[2].Lists != 0 || m[1].Lists != 1 || m[1].Recs != 2 || math.Abs(m[1].Share-l.Share[1]) > 1e-12 {
		t.Errorf("missed lists by cover %+v, want the ol scored low with all of kind b's share %.3f", m, l.Share[1])
	}
	if want := [4]int{2, 2, 2, 3}; l.Recs != want {
		t.Errorf("records of kinds a b c d: %v, want %v", l.Recs, want)
	}
	sum := 0.0
	for k, s := range l.Share {
		if s <= 0 {
			t.Errorf("kind %s: share %.3f, want > 0", lossKinds[k], s)
		}
		sum += s
	}
	if math.Abs(sum-(1-l.F)) > 1e-9 || l.F <= 0 || l.F >= 1 {
		t.Errorf("shares %v add up to %.4f, F1 %.4f", l.Share, sum, l.F)
	}
	// the two halves of li[2] are a list of their own (their parent is li[2]) that
	// splits one true record of the ul
	want := []string{"2/3 exact 2 merged 0 split 0 extra 0 missing 1", "2/3 exact 0 merged 0 split 1 extra 0 missing 2", "1/1 exact 1 merged 0 split 0 extra 0 missing 0"}
	if strings.Join(l.Cuts, "; ") != strings.Join(want, "; ") {
		t.Errorf("cuts %q, want %q", l.Cuts, want)
	}
	var out strings.Builder
	printLosses(&out, []pageLoss{l}, 1, true)
	for _, want := range []string{"s/1", "c: 2 × /html[1]/body[1]/div[1]", "b: 2 × /html[1]/body[1]/ol[1]", `a: /html[1]/body[1]/ul[1]/li[2]/span[1] "Emma"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestMissedKind(t *testing.T) {
	cover := []float64{-1, -1, 0.2, 0.7, 0.4}
	for _, c := range []struct {
		recs []int
		kind int
		best float64
	}{
		{[]int{0, 1, 2}, 0, 0.2}, // most records yielded by no candidate
		{[]int{1, 2, 4}, 1, 0.4}, // yielded, all below the threshold
		{[]int{0, 3}, 2, 0.7},    // half yielded, one at the threshold or more
	} {
		if k, best := missedKind(c.recs, cover, 0.5); k != c.kind || best != c.best {
			t.Errorf("missedKind(%v) = %s %.1f, want %s %.1f", c.recs, missedKinds[k], best, missedKinds[c.kind], c.best)
		}
	}
}
