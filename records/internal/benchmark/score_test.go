package benchmark

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestScore checks the emulation of the NEXT-EVAL measure on a small page: the text
// map's unit (elements directly holding text, JavaScript trim), the string-prefix
// mapping of record XPaths, the one-to-one matching and the edge cases.
func TestScore(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><title>t</title></head><body><ul>")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "<li><b>n%d</b> x <i>y</i></li>", i)
	}
	b.WriteString("</ul><p>\u00a0\ufeff </p><p>\u0085</p><script>var a</script></body></html>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	keys := Keys(doc)
	// 12 × (li, b, i) + title + the p holding U+0085 (not white space in JavaScript)
	if len(keys) != 38 || !slices.Contains(keys, "/head[1]/title[1]") || !slices.Contains(keys, "/body[1]/p[2]") || slices.Contains(keys, "/body[1]/p[1]") {
		t.Fatalf("keys = %d %v", len(keys), keys)
	}
	li := func(k int) []string { return []string{fmt.Sprintf("/html[1]/body[1]/ul[1]/li[%d]", k)} }
	all := func() [][]string {
		var out [][]string
		for k := 1; k <= 12; k++ {
			out = append(out, li(k))
		}
		return out
	}
	tests := []struct {
		name        string
		pred, truth [][]string
		want        PRF
	}{
		{"identical", all(), all(), PRF{1, 1, 1}},
		// li[1] is 3 keys (li[10]–li[12] are not below it although their paths extend
		// its string); its <b> alone is 1 of them
		{"inner element", [][]string{{"/html[1]/body[1]/ul[1]/li[1]/b[1]"}}, [][]string{li(1)}, PRF{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// li[2] (3 keys) without /html and indices
		{"missing indices", [][]string{{"/html/body/ul/li[2]"}}, [][]string{li(2)}, PRF{1, 1, 1}},
		{"half found", all()[:6], all(), PRF{1, 0.5, 2.0 / 3}},
		{"two-element record", [][]string{{li(2)[0], li(3)[0]}}, [][]string{li(2), li(3)}, PRF{0.5, 0.25, 1.0 / 3}},
		{"nothing predicted", nil, all(), PRF{}},
		{"nothing to find", nil, nil, PRF{1, 1, 1}},
		{"empty record", [][]string{{"/html[1]/body[1]/p[1]"}}, [][]string{li(2)}, PRF{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Score(doc, tc.pred, tc.truth)
			if math.Abs(got.P-tc.want.P) > 1e-9 || math.Abs(got.R-tc.want.R) > 1e-9 || math.Abs(got.F-tc.want.F) > 1e-9 {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestOverlapAssignment checks that the matching is one to one and maximal: two
// predictions that both overlap the same true record share it out, the better wins.
func TestOverlapAssignment(t *testing.T) {
	set := func(ks ...string) map[string]bool {
		m := map[string]bool{}
		for _, k := range ks {
			m[k] = true
		}
		return m
	}
	pred := []map[string]bool{set("a", "b"), set("a"), set("c", "d")}
	truth := []map[string]bool{set("a"), set("b"), set("c", "d", "e")}
	// best: {a}↔{a} (1), {a,b}↔{b} (0.5), {c,d}↔{c,d,e} (2/3)
	got := Overlap(pred, truth)
	want := (1 + 0.5 + 2.0/3) / 3
	if math.Abs(got.P-want) > 1e-9 || math.Abs(got.R-want) > 1e-9 {
		t.Errorf("got %v, want P=R=%.4f", got, want)
	}
}

func TestFold(t *testing.T) {
	sizes := make([]int, 5)
	for n := 1; n <= 164; n++ {
		f := Fold(n, 5)
		if f != Fold(n, 5) || f < 0 || f >= 5 {
			t.Fatalf("Fold(%d, 5) = %d", n, f)
		}
		sizes[f]++
	}
	for f, n := range sizes {
		if n < 20 {
			t.Errorf("fold %d holds %d of 164 pages: the hash does not spread them", f, n)
		}
	}
}
