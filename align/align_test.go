package align

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Both KB views satisfy the interface; the Badger store is checked in package ontology.
var _ KB = (*graph.Memory)(nil)

func memKB(t testing.TB, nt string) *graph.Memory {
	t.Helper()
	m, err := graph.ReadMemory(t.Context(), strings.NewReader(nt), "test.nt", graph.MemoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

// TestFactorVectors checks the update-rule vectors of paris.md §3.1.
func TestFactorVectors(t *testing.T) {
	const eps = 1.01
	tests := []struct {
		name                     string
		xeqv, sub, super, f1, f2 float64
		want                     float64 // 1 − factor
	}{
		{"perfect relation both ways", 1, 1 / eps, 1 / eps, 1 / eps, 1 / eps, 0.999612},
		{"one direction known", 1, 1 / eps, 0, 1 / eps, 1 / eps, 0.980296},
		{"bootstrap", 1, 0.1, 0.1, 1 / eps, 1 / eps, 0.188217},
		{"bootstrap, fun 0.5", 1, 0.1, 0.1, 0.5 / eps, 0.5 / eps, 0.096559},
		{"bootstrap through a join", 1, 0.1 / 21, 0.1 / 21, 1 / eps, 1 / eps, 0.009406},
	}
	for _, tc := range tests {
		if got := 1 - Factor(tc.xeqv, tc.sub, tc.super, tc.f1, tc.f2); !near(got, tc.want) {
			t.Errorf("%s: 1 − factor = %.6f, want %.6f", tc.name, got, tc.want)
		}
	}
	a := &aligner{opts: DefaultOptions()}
	if got := a.bootstrap(1); !near(got, 0.1/21) {
		t.Errorf("bootstrap(1) = %v, want ι/21", got)
	}
	if a.joinBootstrapUseful() {
		t.Error("with PARIS's constants a join must not give bootstrap evidence (0.009406 < 0.01)")
	}
	a.opts.Iota = 0.5
	if !a.joinBootstrapUseful() {
		t.Error("with ι = 0.5 a join gives bootstrap evidence")
	}
}

// TestApproxScoreVectors checks the literal vectors of paris.md §7 (byte k-grams,
// multiset Dice, score (dice/1.1)² above 0.78).
func TestApproxScoreVectors(t *testing.T) {
	tests := []struct {
		a, b                         string
		dice2, score2, dice4, score4 float64
	}{
		{"art's deli", "arts deli", 0.8235, 0.5605, 0.4615, 0},
		{"great expectations", "great expectation", 0.9697, 0.7771, 0.9655, 0.7704},
		{"charles dickens", "dickens, charles", 0.8276, 0.5660, 0.6400, 0},
		{"elvis presley", "elvis aaron presley", 0.8000, 0.5289, 0.6154, 0},
		{"hamlet (french edition)", "hamlet", 0.3704, 0, 0.2609, 0},
	}
	for _, tc := range tests {
		for _, k := range []struct {
			k           int
			dice, score float64
		}{{2, tc.dice2, tc.score2}, {4, tc.dice4, tc.score4}} {
			d := textnorm.Dice(tc.a, tc.b, k.k)
			if !near(d, k.dice) {
				t.Errorf("Dice_%d(%q, %q) = %.4f, want %.4f", k.k, tc.a, tc.b, d, k.dice)
			}
			if s := ApproxScore(d, 0.78, 1.1); !near(s, k.score) {
				t.Errorf("score_%d(%q, %q) = %.4f, want %.4f", k.k, tc.a, tc.b, s, k.score)
			}
		}
	}
	for _, v := range []struct{ dice, want float64 }{{1, 0.826}, {0.9, 0.669}, {0.78, 0.503}} {
		if s := ApproxScore(v.dice, 0.78, 1.1); math.Abs(s-v.want) > 5e-4 {
			t.Errorf("ApproxScore(%v) = %.4f, want %.3f", v.dice, s, v.want)
		}
	}
}

// elvisNT is the four-triple smoke test of dig-team/FLORA (data/small-test/mini),
// written as N-Triples: the same person and spouse in two vocabularies.
const (
	elvis1 = `<http://a.example/Elvis> <http://a.example/label> "Elvis Presley" .
<http://a.example/Elvis> <http://a.example/marriedTo> <http://a.example/Priscilla> .
`
	elvis2 = `<http://b.example/elvis> <http://b.example/name> "Elvis Presley" .
<http://b.example/elvis> <http://b.example/spouse> <http://b.example/priscilla> .
`
)

func findInstance(res *Result, left string) (InstanceMatch, bool) {
	for _, m := range res.Instances {
		if m.LeftTerm.Value == left {
			return m, true
		}
	}
	return InstanceMatch{}, false
}

func findRelation(res *Result, subKB int, sub, super string) (RelationMatch, bool) {
	for _, m := range res.Relations {
		if m.SubKB == subKB && m.Sub() == sub && m.Super() == super {
			return m, true
		}
	}
	return RelationMatch{}, false
}

func TestSmokeElvis(t *testing.T) {
	ctx := t.Context()
	kb1, kb2 := memKB(t, elvis1), memKB(t, elvis2)

	// With PARIS's damping, one matched fact gives label ⊆ name = 1/11 < θ: after the
	// two bootstrap iterations nothing carries evidence any more (paris.md §5.1).
	res, err := Align(ctx, kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Iterations[0].Matched; got != 1 {
		t.Errorf("iteration 0 matched %d, want 1 (Elvis through the shared literal)", got)
	}
	if len(res.Instances) != 0 || len(res.Relations) != 0 {
		t.Errorf("with damping 10: %d instances, %d relations; want none", len(res.Instances), len(res.Relations))
	}

	// Without damping, the single fact is enough: Elvis matches with high confidence and
	// label ⊆ name is certain both ways. The spouse stays unmatched, as in PARIS: in the
	// second (last bootstrap) iteration, marriedTo ∘ spouse gets ι through Elvis's
	// first-iteration score (0.19), which gives Priscilla 0.037 < θ; from the third
	// iteration on, an unlearned relation pair carries no evidence (paris.md §13.3).
	opts := DefaultOptions()
	opts.SmoothDenominator = 0
	res, err = Align(ctx, kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := findInstance(res, "http://a.example/Elvis"); !ok || m.RightTerm.Value != "http://b.example/elvis" || m.Confidence < 0.99 {
		t.Errorf("Elvis = %v %.4f, want b:elvis ≥ 0.99", m.RightTerm, m.Confidence)
	}
	if _, ok := findInstance(res, "http://a.example/Priscilla"); ok {
		t.Error("Priscilla matched; PARIS's bootstrap window leaves her unmatched")
	}
	if got := res.Iterations[1].Matched; got != 1 {
		t.Errorf("iteration 1 matched %d (Priscilla must stay below θ)", got)
	}
	for _, dir := range []int{1, 2} {
		sub, super := "http://a.example/label", "http://b.example/name"
		if dir == 2 {
			sub, super = super, sub
		}
		if m, ok := findRelation(res, dir, sub, super); !ok || !near(m.Confidence, 1) {
			t.Errorf("%s ⊆ %s = %v, want 1", sub, super, m.Confidence)
		}
	}
}

// TestDamping checks that a relation matched perfectly on n facts scores n/(n+10) with
// the default damping, and that the reported n is the n of the score.
func TestDamping(t *testing.T) {
	var b1, b2 strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b1, "<http://a.example/e%d> <http://a.example/code> \"code-%d\" .\n", i, i)
		fmt.Fprintf(&b1, "<http://a.example/e%d> <http://a.example/name> \"name number %d\" .\n", i, i)
		fmt.Fprintf(&b2, "<http://b.example/e%d> <http://b.example/id> \"code-%d\" .\n", i, i)
		fmt.Fprintf(&b2, "<http://b.example/e%d> <http://b.example/label> \"name number %d\" .\n", i, i)
	}
	res, err := Align(t.Context(), memKB(t, b1.String()), memKB(t, b2.String()), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Instances) != 10 {
		t.Fatalf("%d instances, want 10", len(res.Instances))
	}
	m, ok := findRelation(res, 1, "http://a.example/code", "http://b.example/id")
	if !ok {
		t.Fatal("code ⊆ id missing")
	}
	// n counts each matched fact with the confidence of its subject's match (≈ 0.92
	// here), so ten facts weigh a little less than 10.
	if m.N < 9 || m.N > 10 {
		t.Errorf("n = %v, want ≤ 10 and ≥ 9", m.N)
	}
	if want := m.N / (m.N + 10); !near(m.Confidence, want) {
		t.Errorf("Pr(code ⊆ id) = %v, want n/(n+10) = %v", m.Confidence, want)
	}
	if m.Confidence > 0.5 || m.Confidence < 0.45 {
		t.Errorf("a perfect relation on 10 facts scores %v, want just under 0.5", m.Confidence)
	}
}

// booksKBs builds n books by seven writers: KB1 is a record graph (title and writer
// literals on the record), KB2 has the title as a label of the book and the writer one
// step away (book —author→ person —label→ name). As in real book lists, writers repeat
// and titles do not, so a record is more like a book than like its writer.
func booksKBs(t testing.TB, n int, titleVariant func(i int, title string) string) (*graph.Memory, *graph.Memory) {
	var b1, b2 strings.Builder
	writers := []string{"Ada Morrow", "Boris Quill", "Clara Sato", "Dmitri Varga", "Elena Lindgren", "Farid Okafor", "Greta Brandt"}
	for i, w := range writers {
		fmt.Fprintf(&b2, "<http://kb.example/person%d> <http://kb.example/label> %q .\n", i, w)
	}
	for i := range n {
		title := fmt.Sprintf("Chronicle of the %s Valley", []string{"Amber", "Silent", "Northern", "Broken", "Hidden", "Golden", "Frozen", "Sunken", "Crimson", "Winding", "Lonely", "Misty", "Burning", "Sleeping", "Western"}[i%15])
		title += fmt.Sprintf(" %s", []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX"}[i%20])
		t1 := title
		if titleVariant != nil {
			t1 = titleVariant(i, title)
		}
		fmt.Fprintf(&b1, "<http://shop.example/r%d> <http://shop.example/title> %q .\n", i, t1)
		fmt.Fprintf(&b1, "<http://shop.example/r%d> <http://shop.example/writer> %q .\n", i, writers[i%len(writers)])
		fmt.Fprintf(&b2, "<http://kb.example/book%d> <http://kb.example/label> %q .\n", i, title)
		fmt.Fprintf(&b2, "<http://kb.example/book%d> <http://kb.example/author> <http://kb.example/person%d> .\n", i, i%len(writers))
	}
	return memKB(t, b1.String()), memKB(t, b2.String())
}

// TestJoinOnly: the writer of a record is a literal on the record, while the KB has it
// one entity away. Only a join aligns it.
func TestJoinOnly(t *testing.T) {
	ctx := t.Context()
	kb1, kb2 := booksKBs(t, 20, nil)
	res, err := Align(ctx, kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Instances) != 20 {
		t.Errorf("%d books matched, want 20", len(res.Instances))
	}
	for _, m := range res.Instances {
		if strings.TrimPrefix(m.LeftTerm.Value, "http://shop.example/r") != strings.TrimPrefix(m.RightTerm.Value, "http://kb.example/book") {
			t.Errorf("wrong pair %s = %s", m.LeftTerm.Value, m.RightTerm.Value)
		}
	}
	join := "http://kb.example/author / http://kb.example/label"
	m, ok := findRelation(res, 1, "http://shop.example/writer", join)
	if !ok || m.Confidence < 0.5 {
		t.Errorf("writer ⊆ author / label = %v (found %v), want ≥ 0.5", m.Confidence, ok)
	}
	if m, ok := findRelation(res, 2, join, "http://shop.example/writer"); !ok || m.Confidence < 0.5 {
		t.Errorf("author / label ⊆ writer = %v, want ≥ 0.5", m.Confidence)
	}
	for _, r := range res.Relations {
		if r.SubKB == 1 && r.Sub() == "http://shop.example/writer" && !r.Right.IsJoin() {
			t.Errorf("writer aligned with a plain relation: %s %.3f", r.Super(), r.Confidence)
		}
	}
	// Without joins, the writer is not aligned at all.
	opts := DefaultOptions()
	opts.JoinLength, opts.JoinSum = 1, 2
	res, err = Align(ctx, kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Relations {
		if r.Sub() == "http://shop.example/writer" || r.Super() == "http://shop.example/writer" {
			t.Errorf("without joins the writer aligned: %s ⊆ %s", r.Sub(), r.Super())
		}
	}
}

// TestLiteralVariant: "Hamlet (French Edition)" on the record against "Hamlet" in the
// KB. The normal form strips the bracketed part (thesis ch. 3 §3.6); exact matching
// does not see the match.
func TestLiteralVariant(t *testing.T) {
	ctx := t.Context()
	variant := func(i int, title string) string {
		if i == 0 {
			return "Hamlet (French Edition)"
		}
		return title
	}
	kb1, kb2 := booksKBs(t, 20, variant)
	// The KB has Hamlet as book 0.
	nt2 := strings.Replace(dumpNT(t, kb2), `<http://kb.example/book0> <http://kb.example/label> "Chronicle of the Amber Valley I"`, `<http://kb.example/book0> <http://kb.example/label> "Hamlet"`, 1)
	kb2 = memKB(t, nt2)
	for _, mode := range []LiteralMode{LiteralNormalized, LiteralApprox} {
		opts := DefaultOptions()
		opts.Literals = mode
		res, err := Align(ctx, kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := findInstance(res, "http://shop.example/r0")
		if !ok || m.RightTerm.Value != "http://kb.example/book0" || m.Confidence < opts.LinkThreshold {
			t.Errorf("%s: r0 = %v %.3f, want book0 above the link threshold", mode, m.RightTerm, m.Confidence)
		}
	}
	opts := DefaultOptions()
	opts.Literals = LiteralExact
	res, err := Align(ctx, kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := findInstance(res, "http://shop.example/r0"); ok && m.Confidence >= opts.LinkThreshold {
		t.Errorf("exact literals: r0 linked at %.3f through the title, which differs", m.Confidence)
	}
}

// dumpNT writes the facts of a Memory back as N-Triples (test helper).
func dumpNT(t testing.TB, m *graph.Memory) string {
	t.Helper()
	ctx := t.Context()
	var ts []graph.Triple
	for id, err := range m.Entities(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		s, _ := m.Term(ctx, id)
		for e := range m.Edges(ctx, id) {
			if e.Rel.IsInverse() {
				continue
			}
			o, _ := m.Term(ctx, e.Node)
			ts = append(ts, graph.Triple{S: s, P: graph.NewIRI(m.RelationIRI(e.Rel)), O: o})
		}
	}
	var b bytes.Buffer
	if err := graph.WriteSorted(&b, ts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDates: a year on the record matches a YAGO date with '#' wildcards, or a full date,
// by inclusion.
func TestDates(t *testing.T) {
	var b1, b2 strings.Builder
	for i := range 12 {
		y := 1800 + 7*i
		fmt.Fprintf(&b1, "<http://a.example/p%d> <http://a.example/born> \"%d\" .\n", i, y)
		fmt.Fprintf(&b1, "<http://a.example/p%d> <http://a.example/name> \"Person Number %d\" .\n", i, i)
		date := fmt.Sprintf("%d-##-##", y)
		if i%2 == 1 {
			date = fmt.Sprintf("%d-0%d-1%d", y, 1+i%9, i%10)
		}
		fmt.Fprintf(&b2, "<http://b.example/q%d> <http://b.example/birthDate> \"%s\"^^<http://www.w3.org/2001/XMLSchema#date> .\n", i, date)
		fmt.Fprintf(&b2, "<http://b.example/q%d> <http://b.example/label> \"Person Number %d\" .\n", i, i)
	}
	res, err := Align(t.Context(), memKB(t, b1.String()), memKB(t, b2.String()), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Instances) != 12 {
		t.Errorf("%d matched, want 12", len(res.Instances))
	}
	if m, ok := findRelation(res, 1, "http://a.example/born", "http://b.example/birthDate"); !ok || m.Confidence < 0.5 {
		t.Errorf("born ⊆ birthDate = %v, want ≥ 0.5 (years include dates)", m.Confidence)
	}
}

func TestBadInput(t *testing.T) {
	ctx := t.Context()
	good := memKB(t, elvis2)
	tests := []struct {
		name string
		kb1  string
		want error
	}{
		{"only taxonomy", "<http://a.example/x> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://a.example/C> .\n", ErrEmptyKB},
		{"empty", "", ErrEmptyKB},
		{"no literals", "<http://a.example/x> <http://a.example/p> <http://a.example/y> .\n", ErrNoLiterals},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Align(ctx, memKB(t, tc.kb1), good, DefaultOptions())
			if !errors.Is(err, tc.want) {
				t.Errorf("error = %v, want %v", err, tc.want)
			}
		})
	}
	// Literals that match nothing: an empty result with a warning, not an error.
	res, err := Align(ctx, memKB(t, `<http://a.example/x> <http://a.example/p> "zzqx unknown" .`+"\n"), good, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "no literal of KB1") {
		t.Errorf("warnings = %v", res.Warnings)
	}
	opts := DefaultOptions()
	opts.Theta = 2
	if _, err := Align(ctx, good, good, opts); err == nil || !strings.Contains(err.Error(), "Theta") {
		t.Errorf("invalid options: %v", err)
	}
}

func TestOptions(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatal(err)
	}
	mod := func(f func(*Options)) Options { o := DefaultOptions(); f(&o); return o }
	bad := map[string]Options{
		"MaxIterations":     mod(func(o *Options) { o.MaxIterations = 0 }),
		"Theta":             mod(func(o *Options) { o.Theta = 1 }),
		"Epsilon":           mod(func(o *Options) { o.Epsilon = 0.5 }),
		"SmoothDenominator": mod(func(o *Options) { o.SmoothNumerator, o.SmoothDenominator = 2, 1 }),
		"JoinLength":        mod(func(o *Options) { o.JoinLength = 4 }),
		"JoinSum":           mod(func(o *Options) { o.JoinLength, o.JoinSum = 1, 3 }),
		"Literals":          mod(func(o *Options) { o.Literals = "fuzzy" }),
		"ApproxMinDice":     mod(func(o *Options) { o.ApproxMinDice = math.NaN() }),
		"MatchCandidates":   mod(func(o *Options) { o.MatchCandidates = 0 }),
		"LinkThreshold":     mod(func(o *Options) { o.LinkThreshold = 1.5 }),
	}
	for field, o := range bad {
		if err := o.Validate(); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: Validate() = %v, want an error naming the field", field, err)
		}
	}
	o := mod(func(o *Options) { o.JoinLength, o.JoinSum, o.Literals = 3, 4, LiteralExact })
	var b bytes.Buffer
	if err := WriteOptions(&b, o); err != nil {
		t.Fatal(err)
	}
	back, err := ReadOptions(&b, "options.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.JoinLength != 3 || back.JoinSum != 4 || back.Literals != LiteralExact {
		t.Errorf("round trip lost fields: %+v", back)
	}
	if _, err := ReadOptions(strings.NewReader(`{"theta": 0.1, "thetta": 2}`), "x.json"); err == nil || !strings.Contains(err.Error(), "thetta") {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := ReadOptions(strings.NewReader(`{"negative_evidence": "yes"}`), "x.json"); err == nil {
		t.Error(`"yes" accepted as a boolean`)
	}
}

func TestPathNames(t *testing.T) {
	kb := memKB(t, `<http://a.example/x> <http://a.example/p> <http://a.example/y> .
<http://a.example/y> <http://a.example/q-> "v" .
`)
	p, _ := kb.RelationID("http://a.example/p")
	q, _ := kb.RelationID("http://a.example/q-")
	tests := []struct {
		path Path
		name string
	}{
		{NewPath(p), "http://a.example/p"},
		{NewPath(p.Inverse()), "http://a.example/p-"},
		{NewPath(p, q), "http://a.example/p / http://a.example/q-"},
		{NewPath(q.Inverse(), p.Inverse()), "http://a.example/q-- / http://a.example/p-"},
	}
	for _, tc := range tests {
		if got := PathName(kb, tc.path); got != tc.name {
			t.Errorf("PathName = %q, want %q", got, tc.name)
		}
		back, ok := ParsePathName(kb, tc.name)
		if !ok || back != tc.path {
			t.Errorf("ParsePathName(%q) = %v, %v", tc.name, back, ok)
		}
	}
	if got := NewPath(p, q).Inverse(); got != NewPath(q.Inverse(), p.Inverse()) {
		t.Errorf("Inverse = %v", got)
	}
	if _, ok := ParsePathName(kb, "http://a.example/nope"); ok {
		t.Error("unknown relation parsed")
	}
	sub, super := canonical(NewPath(p.Inverse()), NewPath(q.Inverse()))
	if sub != NewPath(p) || super != NewPath(q) {
		t.Errorf("canonical(p⁻, q⁻) = %v, %v; want p, q", sub, super)
	}
}

func TestRelationPairBound(t *testing.T) {
	kb1, kb2 := booksKBs(t, 20, nil)
	opts := DefaultOptions()
	opts.MaxRelationPairs = 2
	res, err := Align(t.Context(), kb1, kb2, opts)
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	for _, it := range res.Iterations {
		dropped += it.DroppedJoinPairs
	}
	if dropped == 0 {
		t.Error("no join evidence dropped with MaxRelationPairs = 2")
	}
	if _, ok := findRelation(res, 1, "http://shop.example/title", "http://kb.example/label"); !ok {
		t.Error("plain relation pairs must still be tracked past the bound")
	}
}

func TestHubsSkipped(t *testing.T) {
	var b1, b2 strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b1, "<http://a.example/p%d> <http://a.example/name> \"Someone %d\" .\n", i, i)
		fmt.Fprintf(&b1, "<http://a.example/p%d> <http://a.example/gender> \"female\" .\n", i)
		fmt.Fprintf(&b2, "<http://b.example/q%d> <http://b.example/label> \"Someone %d\" .\n", i, i)
		fmt.Fprintf(&b2, "<http://b.example/q%d> <http://b.example/gender> \"female\" .\n", i)
	}
	opts := DefaultOptions()
	opts.MaxDegree = 20
	res, err := Align(t.Context(), memKB(t, b1.String()), memKB(t, b2.String()), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.KB2Hubs != 1 {
		t.Errorf("%d KB2 hubs, want 1 (the literal female, 30 edges)", res.Stats.KB2Hubs)
	}
	if len(res.Instances) != 30 {
		t.Errorf("%d matched, want 30", len(res.Instances))
	}
	if len(res.Warnings) == 0 {
		t.Error("no warning about the KB1 hub")
	}
}

// TestNegativeEvidence: a record of a book the KB does not have, whose title is that of
// a KB book but whose (functional) writer is another. Negative evidence multiplies the
// odds of the pair by 1 − Pr(writer ⊆ author / label); corroboration keeps it from being
// a link (the writer could have agreed and did not).
func TestNegativeEvidence(t *testing.T) {
	kb1, kb2 := booksKBs(t, 20, nil)
	var lines []string
	for _, l := range strings.SplitAfter(dumpNT(t, kb1), "\n") {
		if !strings.HasPrefix(l, "<http://shop.example/r0>") {
			lines = append(lines, l)
		}
	}
	lines = append(lines, `<http://shop.example/odd> <http://shop.example/title> "Chronicle of the Amber Valley I" .
<http://shop.example/odd> <http://shop.example/writer> "Boris Quill" .
`)
	kb1 = memKB(t, strings.Join(lines, ""))
	run := func(neg bool) (InstanceMatch, *Result) {
		opts := DefaultOptions()
		opts.NegativeEvidence = neg
		res, err := Align(t.Context(), kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := findInstance(res, "http://shop.example/r1"); !ok || m.RightTerm.Value != "http://kb.example/book1" || !m.Linked(opts) {
			t.Errorf("neg=%v: r1 = %v %.3f, want linked to book1", neg, m.RightTerm, m.Confidence)
		}
		m, ok := findInstance(res, "http://shop.example/odd")
		if !ok || m.RightTerm.Value != "http://kb.example/book0" {
			t.Fatalf("neg=%v: odd = %v (found %v), want book0 as its best candidate", neg, m.RightTerm, ok)
		}
		if m.Linked(opts) {
			t.Errorf("neg=%v: odd linked to book0 at %.3f on the title alone (support %d of %d)", neg, m.Confidence, m.Support, m.Comparable)
		}
		return m, res
	}
	pos, _ := run(false)
	neg, res := run(true)
	r, ok := findRelation(res, 1, "http://shop.example/writer", "http://kb.example/author / http://kb.example/label")
	if !ok {
		t.Fatal("writer ⊆ author / label not aligned")
	}
	odds := func(p float64) float64 { return p / (1 - p) }
	t.Logf("odd ≡ book0: %.3f without, %.3f with negative evidence; Pr(writer ⊆ author / label) = %.3f", pos.Confidence, neg.Confidence, r.Confidence)
	if got, want := odds(neg.Confidence)/odds(pos.Confidence), 1-r.Confidence; math.Abs(got-want) > 0.02 {
		t.Errorf("odds ratio %.3f, want 1 − Pr(writer ⊆ author / label) = %.3f", got, want)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
