package align

import (
	"fmt"
	"strings"
	"testing"
)

// TestMixedRangeNormaliser checks the normaliser of a join whose facts end at literals
// and at entities: contact has a phone number (a literal) and a friend (an entity). The
// literal-to-literal facts of name⁻ / contact can have no counterpart in KB2 (no edge
// links two literals) and are left out of the main relation pass, but they still count
// in the normaliser of the path, which is matched through its other facts:
// N = Σ (1 + Pr(friend ≡ friend′)) over the persons.
func TestMixedRangeNormaliser(t *testing.T) {
	const ex1, ex2 = "http://one.example/", "http://two.example/"
	var b1, b2 strings.Builder
	names := []string{"alma", "boris", "cyril", "dagny", "emeric", "fenna", "gideon", "hester"}
	for i, n := range names {
		friend := fmt.Sprintf("%s friend of %s", strings.ToUpper(n[:1]), n)
		phone := fmt.Sprintf("555-01%02d", i)
		fmt.Fprintf(&b1, "<%sp%d> <%sname> %q .\n", ex1, i, ex1, n)
		fmt.Fprintf(&b1, "<%sp%d> <%scontact> %q .\n", ex1, i, ex1, phone)
		fmt.Fprintf(&b1, "<%sp%d> <%scontact> <%sq%d> .\n", ex1, i, ex1, ex1, i)
		fmt.Fprintf(&b1, "<%sq%d> <%slabel> %q .\n", ex1, i, ex1, friend)
		fmt.Fprintf(&b2, "<%sP%d> <%sname> %q .\n", ex2, i, ex2, n)
		fmt.Fprintf(&b2, "<%sP%d> <%sphone> %q .\n", ex2, i, ex2, phone)
		fmt.Fprintf(&b2, "<%sQ%d> <%sfriendName> %q .\n", ex2, i, ex2, n)
		fmt.Fprintf(&b2, "<%sQ%d> <%slabel> %q .\n", ex2, i, ex2, friend)
	}
	kb1, kb2 := memKB(t, b1.String()), memKB(t, b2.String())
	opts := DefaultOptions()
	opts.SmoothDenominator = 0
	opts.Literals = LiteralExact
	res, err := Align(t.Context(), kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, m := range res.Instances {
		if strings.HasPrefix(m.LeftTerm.Value, ex1+"q") {
			want += 1 + m.Confidence
		}
	}
	var got *RelationMatch
	for k, m := range res.Relations {
		if m.SubKB == 1 && m.LeftName == ex1+"name- / "+ex1+"contact" && m.RightName == ex2+"friendName-" {
			got = &res.Relations[k]
		}
	}
	if got == nil {
		t.Fatalf("no name- / contact ⊆ friendName- in %d relation matches", len(res.Relations))
	}
	if want < float64(len(names)) || !near(got.N, want) {
		t.Errorf("N = %.4f, want %.4f (literal-to-literal facts counted)", got.N, want)
	}
}
