package records

import (
	"math"
	"testing"

	"golang.org/x/net/html"
)

// The test vectors of forest.md §3.3 (page X = 20 signifiers, Y = 100 other terms,
// natural logarithm) and the thesis's own examples (ch. 2 §6.2.2).
func TestMeasures(t *testing.T) {
	tests := []struct {
		x, y       float64
		j, u, info float64
	}{
		{1, 0, 0.3170, 1.7918, 0.5680},
		{1, 2, 0.0955, 2.1564, 0.2059},
		{2, 8, 0.0948, 5.0421, 0.4777},
		{3, 1, 0.4709, 5.5576, 2.6169},
		{3, 2, 0.3629, 5.7399, 2.0828},
		{3, 5, 0.2165, 6.2869, 1.3613},
		{5, 0, 0.7931, 8.9588, 7.1049},
		{8, 20, 0.2071, 17.9805, 3.7234},
		{10, 26, 0.2086, 22.6580, 4.7275},
		{20, 100, 0.1352, 54.0673, 7.3087},
	}
	for _, tc := range tests {
		j := Jeffreys(tc.x, tc.y)
		u := Unexpectedness(tc.x, tc.y, 20, 100)
		i := Informativeness(tc.x, tc.y, 20, 100)
		if math.Abs(j-tc.j) > 1e-4 || math.Abs(u-tc.u) > 1e-4 || math.Abs(i-tc.info) > 1e-4 {
			t.Errorf("(%g,%g): J=%.4f U=%.4f I=%.4f, want %.4f %.4f %.4f", tc.x, tc.y, j, u, i, tc.j, tc.u, tc.info)
		}
	}
	// "a node with 10 signifiers and 26 non-signifiers will have an unexpectedness of
	// 23 … a node with 3 signifiers and 1 non-signifier: 6" — in nats.
	if u := Unexpectedness(10, 26, 20, 100); math.Round(u) != 23 {
		t.Errorf("U(10,26) = %.2f, want ≈ 23", u)
	}
	if u := Unexpectedness(3, 1, 20, 100); math.Round(u) != 6 {
		t.Errorf("U(3,1) = %.2f, want ≈ 6", u)
	}
	// "J(8,20) is comparable to J(3,5)"; "x = 1 and y = 0 … J ≈ 0.32".
	if d := math.Abs(Jeffreys(8, 20) - Jeffreys(3, 5)); d > 0.01 {
		t.Errorf("J(8,20) and J(3,5) differ by %.3f", d)
	}
	// Edge cases: no terms, no signifier on the page.
	if Jeffreys(0, 0) != 0 || Unexpectedness(0, 0, 0, 0) != 0 || Unexpectedness(0, 5, 0, 10) != 0 {
		t.Error("measures of empty elements or pages must be 0")
	}
}

func TestTolerantForm(t *testing.T) {
	tests := []struct{ in, want string }{
		{"post wrapper-02", "post"},
		{"story", "story"},
		{"item-12 odd", "item"},
		{"r3", "r"},
		{"12", ""},
		{"  ", ""},
		{"__x_9__", "x"},
		// per-page ids: hexadecimal parts go whole
		{"results-8c1fa2", "results"},
		{"results-b7e0d3 list", "results"},
		{"list_3f2a9c1e-4b7d", "list"},
		{"ember123", "ember"},
		{"deadbeef", "deadbeef"}, // no digit: a word
		{"col-e3", "col"},
	}
	for _, tc := range tests {
		if got := tolerantForm(tc.in); got != tc.want {
			t.Errorf("tolerantForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestElementType(t *testing.T) {
	el := func(tag string, attrs ...string) *html.Node {
		n := &html.Node{Type: html.ElementNode, Data: tag}
		for i := 0; i+1 < len(attrs); i += 2 {
			n.Attr = append(n.Attr, html.Attribute{Key: attrs[i], Val: attrs[i+1]})
		}
		return n
	}
	tests := []struct {
		n    *html.Node
		dfs  int
		want string
	}{
		{el("div", "id", "container"), 19, "div[@id='container']"},
		{el("div", "class", "post wrapper-09"), 78, "div[@class='post']"},
		{el("p"), 24, "p[@dfs='24']"},
		{el("p", "class", "12", "href", "/x"), 7, "p[@dfs='7']"}, // no tolerant attribute left: rule (ii)
		{el("li", "class", "item-3", "id", "r-3", "data-x", "1"), 5, "li[@class='item' and @id='r']"},
	}
	for _, tc := range tests {
		if got := elementType(tc.n, tc.dfs, DefaultTypeAttributes); got != tc.want {
			t.Errorf("elementType = %q, want %q", got, tc.want)
		}
	}
}

func TestWeakToken(t *testing.T) {
	for _, w := range []string{"the", "a", "e", "de", "und", "12", "x"} {
		if !weakToken(w) {
			t.Errorf("%q should be weak", w)
		}
	}
	for _, w := range []string{"dickens", "1984", "ab"} {
		if weakToken(w) {
			t.Errorf("%q should be strong", w)
		}
	}
}
