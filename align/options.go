package align

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
)

// LiteralMode says how literals of the two KBs are matched (paris.md §7).
type LiteralMode string

// The literal matching modes.
const (
	// LiteralExact matches literals with identical lexical forms (datatype and language
	// ignored), PARIS's default "identity".
	LiteralExact LiteralMode = "exact"
	// LiteralNormalized matches literals with the same textnorm.Literal normal form
	// (case, accents, punctuation, bracketed parts and stop words ignored), and dates by
	// inclusion.
	LiteralNormalized LiteralMode = "normalized"
	// LiteralApprox adds, for string literals without a normalised match, approximate
	// matches: k-gram MinHash candidates re-scored by the multiset k-gram Dice
	// coefficient, kept at Dice ≥ ApproxMinDice and scored (Dice/ApproxPenalty)².
	LiteralApprox LiteralMode = "approx"
)

// Options configures Align. Start from DefaultOptions and override fields. The JSON form
// (WriteOptions, ReadOptions) is the options.json of an output directory.
//
// The defaults are the parameters of the PARIS reference code v0.3 (paris.md §10) where
// trawl has no reason to differ; the differences (joins on, normalised and approximate
// literals, early stop, the 1:1 assignment over several candidates) are recorded in
// docs/decisions.
type Options struct {
	// MaxIterations bounds the number of iterations (PARIS runs 10).
	MaxIterations int `json:"max_iterations"`
	// StopTolerance ends the run early, from the fourth iteration on, when the 1:1
	// matching and the set of relation pairs ≥ Theta did not change and no instance or
	// relation score moved by more than StopTolerance. 0 always runs MaxIterations.
	StopTolerance float64 `json:"stop_tolerance"`

	// Theta (θ) is the threshold below which scores are ignored: instance pairs below it
	// do not propagate, relation scores below it are not kept.
	Theta float64 `json:"theta"`
	// Iota (ι) is the relation subsumption assumed in the first two iterations (the
	// bootstrap) for relation pairs with no learned score.
	Iota float64 `json:"iota"`
	// IotaLengthPenalty divides Iota for joins: ι / (1 + IotaLengthPenalty·extra), where
	// extra is the number of steps beyond the first on both sides (PARIS: 20).
	IotaLengthPenalty float64 `json:"iota_length_penalty"`
	// Epsilon (ε) divides relation scores and functionalities in the instance update, so
	// that no evidence factor is exactly 0 and perfect matches still rank (PARIS: 1.01).
	Epsilon float64 `json:"epsilon"`
	// EvidenceCut drops an evidence factor f with 1 − f ≤ EvidenceCut (PARIS: 0.01).
	EvidenceCut float64 `json:"evidence_cut"`

	// SmoothNumerator and SmoothDenominator damp relation scores:
	// Pr(r ⊆ r') = (score + SmoothNumerator) / (n + SmoothDenominator), where n is the
	// number of facts of r whose two arguments have a counterpart. With the default 10, a
	// relation matched perfectly on n facts scores n/(n+10): 0.5 on 10 facts, 0.09 on one
	// (below Theta). Small graphs need more facts (probe more) rather than a smaller
	// constant; see paris.md §5.1.
	SmoothNumerator   float64 `json:"smooth_numerator"`
	SmoothDenominator float64 `json:"smooth_denominator"`

	// JoinLength is the longest relation path considered on either side: 1 = no joins,
	// 2 = the thesis setting (created⁻ ∘ hasPreferredName), at most MaxJoinLength.
	JoinLength int `json:"join_length"`
	// JoinSum bounds the summed length of the two paths of a relation pair (PARIS's
	// sumJoinLengthLimit). The default JoinLength+1 allows a join on one side only.
	JoinSum int `json:"join_sum"`
	// MaxRelationPairs bounds the relation pairs tracked in one relation pass. When it is
	// reached, no new pair involving a join is created for the rest of the pass (plain
	// relation pairs always are); the iteration statistics count the dropped evidence.
	MaxRelationPairs int `json:"max_relation_pairs"`
	// MaxDegree is the largest number of edges a node may have to be used as a step of
	// evidence. Nodes with more (hubs such as a gender or a common year) are skipped and
	// counted: their evidence is spread over too many candidates to discriminate.
	MaxDegree int `json:"max_degree"`

	// Literals is the literal matching mode.
	Literals LiteralMode `json:"literals"`
	// LiteralCandidates is how many KB2 literals are looked up per KB1 literal.
	LiteralCandidates int `json:"literal_candidates"`
	// ApproxK is the k of the k-gram Dice coefficient of approximate matches (the thesis
	// used 2; PARIS's default is 4).
	ApproxK int `json:"approx_k"`
	// ApproxMinDice is the smallest Dice coefficient of an approximate match (PARIS: 0.78).
	ApproxMinDice float64 `json:"approx_min_dice"`
	// ApproxPenalty divides the Dice coefficient of an approximate match, which is then
	// squared (PARIS: 1.1, so Dice 1.0 → 0.826, 0.78 → 0.503).
	ApproxPenalty float64 `json:"approx_penalty"`

	// MatchCandidates is how many candidates per KB1 entity enter the 1:1 assignment. 1
	// is PARIS's takeMaxMaxBothWays; more lets an entity whose best candidate went to a
	// better-supported entity take its next best (a greedy maximal assignment).
	MatchCandidates int `json:"match_candidates"`
	// OneToMany keeps the best candidate of every KB1 entity even when another KB1
	// entity has the same KB2 partner (PARIS's takeMax without takeMaxMax): a source that
	// lists one entity several times links every copy. Off, the matching is 1:1.
	OneToMany bool `json:"one_to_many"`

	// The evidence factors of factors.go (decision record
	// 2026-11-27-linking-evidence-factors).
	//
	// MinDiscriminative is the least inverse functionality (1 / the mean number of
	// subjects per value), in both KBs, of a relation pair that must support a candidate:
	// a candidate supported only by shared years, numbers, categories or a name that
	// several entities share (an author's, for the books of a source without titles) is
	// dropped. KB1's is copy-aware (copies.go): copies of one entity count once. 0 turns
	// the requirement off.
	MinDiscriminative float64 `json:"min_discriminative"`
	// Corroboration requires a candidate to be supported by two distinct relations of
	// the KB1 entity when the entity has values with counterparts on two or more.
	Corroboration bool `json:"corroboration"`
	// NegativeEvidence weighs disagreement: a relation aligned (≥ Theta) to paths along
	// which both entities have values, none agreeing, multiplies the odds of the
	// candidate by 1 − Pr(r ⊆ p)·(1 − best similarity) (paris.md §3.2, in odds space).
	NegativeEvidence bool `json:"negative_evidence"`
	// DateTolerance is the difference in years under which two dates are not taken as
	// disagreeing (an edition against a first publication; a year against a date).
	DateTolerance int `json:"date_tolerance"`
	// TypeEvidence weighs the class of a candidate: once the partners of a KB1 class's
	// entities fall, for at least ClassSupport of them (Laplace-smoothed), in one KB2
	// class (the most specific such class), a candidate outside it gets the likelihood
	// ratio (1 − share)/share. It needs a Taxonomy on both sides.
	TypeEvidence bool    `json:"type_evidence"`
	ClassSupport float64 `json:"class_support"`
	// SubjectJoins, in the bootstrap iterations, gives the evidence of a candidate's
	// facts also to the entities it is a functional value of, when another of the KB1
	// entity's values corroborates them (subject.go): a book record whose author's name
	// is its most discriminative value is matched to the book, not to its author.
	SubjectJoins bool `json:"subject_joins"`
	// Classes computes class subsumptions after the last iteration.
	Classes bool `json:"classes"`
	// LinkThreshold is the lowest instance confidence written as owl:sameAs to links.nt.
	LinkThreshold float64 `json:"link_threshold"`

	// Workers is the number of goroutines of each pass; 0 means GOMAXPROCS. The result
	// does not depend on it.
	Workers int `json:"-"`

	// Logger receives per-iteration progress (Info) and diagnostics. Nil discards them.
	Logger *slog.Logger `json:"-"`
	// Progress, if set, is called after each iteration with what it changed.
	Progress func(IterationStats) `json:"-"`

	// expandWeak makes every evidence block propose its candidates, as the aligner did
	// before weak blocks were kept unexpanded (instances.go, addBlock): tests compare
	// the two, which must give the same result.
	expandWeak bool
	// keepKB2Order keeps KB2's view in the order of its reads, as the aligner did
	// before renumberKB2: tests compare the two, which must give the same result.
	keepKB2Order bool
}

// DefaultOptions returns the defaults described on each field of Options.
func DefaultOptions() Options {
	return Options{
		MaxIterations:     10,
		StopTolerance:     1e-4,
		Theta:             0.1,
		Iota:              0.1,
		IotaLengthPenalty: 20,
		Epsilon:           1.01,
		EvidenceCut:       0.01,
		SmoothNumerator:   0,
		SmoothDenominator: 10,
		JoinLength:        2,
		JoinSum:           3,
		MaxRelationPairs:  1 << 20,
		MaxDegree:         10000,
		Literals:          LiteralApprox,
		LiteralCandidates: 10,
		ApproxK:           2,
		ApproxMinDice:     0.78,
		ApproxPenalty:     1.1,
		MatchCandidates:   5,
		MinDiscriminative: 0.7,
		Corroboration:     true,
		NegativeEvidence:  true,
		DateTolerance:     1,
		TypeEvidence:      true,
		ClassSupport:      0.9,
		SubjectJoins:      true,
		Classes:           true,
		LinkThreshold:     0.9,
	}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	bad := func(field string, format string, v any) error {
		return fmt.Errorf("align: option %s must be %s, got %v", field, format, v)
	}
	inOpen01 := func(x float64) bool { return x > 0 && x < 1 && !math.IsNaN(x) }
	switch {
	case o.MaxIterations < 1 || o.MaxIterations > 1000:
		return bad("MaxIterations", "in [1, 1000]", o.MaxIterations)
	case o.StopTolerance < 0 || math.IsNaN(o.StopTolerance):
		return bad("StopTolerance", "≥ 0", o.StopTolerance)
	case !inOpen01(o.Theta):
		return bad("Theta", "in (0, 1)", o.Theta)
	case !inOpen01(o.Iota):
		return bad("Iota", "in (0, 1)", o.Iota)
	case o.IotaLengthPenalty < 0 || math.IsNaN(o.IotaLengthPenalty):
		return bad("IotaLengthPenalty", "≥ 0", o.IotaLengthPenalty)
	case !(o.Epsilon >= 1) || math.IsInf(o.Epsilon, 0):
		return bad("Epsilon", "≥ 1", o.Epsilon)
	case o.EvidenceCut < 0 || o.EvidenceCut >= 1 || math.IsNaN(o.EvidenceCut):
		return bad("EvidenceCut", "in [0, 1)", o.EvidenceCut)
	case o.SmoothNumerator < 0 || math.IsNaN(o.SmoothNumerator) || math.IsInf(o.SmoothNumerator, 0):
		return bad("SmoothNumerator", "≥ 0", o.SmoothNumerator)
	case o.SmoothDenominator < o.SmoothNumerator || math.IsNaN(o.SmoothDenominator) || math.IsInf(o.SmoothDenominator, 0):
		return bad("SmoothDenominator", "≥ SmoothNumerator (scores must stay ≤ 1)", o.SmoothDenominator)
	case o.JoinLength < 1 || o.JoinLength > MaxJoinLength:
		return bad("JoinLength", fmt.Sprintf("in [1, %d]", MaxJoinLength), o.JoinLength)
	case o.JoinSum < 2 || o.JoinSum > 2*o.JoinLength:
		return bad("JoinSum", fmt.Sprintf("in [2, 2·JoinLength = %d]", 2*o.JoinLength), o.JoinSum)
	case o.MaxRelationPairs < 1:
		return bad("MaxRelationPairs", "≥ 1", o.MaxRelationPairs)
	case o.MaxDegree < 1:
		return bad("MaxDegree", "≥ 1", o.MaxDegree)
	case o.Literals != LiteralExact && o.Literals != LiteralNormalized && o.Literals != LiteralApprox:
		return bad("Literals", `"exact", "normalized" or "approx"`, fmt.Sprintf("%q", o.Literals))
	case o.LiteralCandidates < 1:
		return bad("LiteralCandidates", "≥ 1", o.LiteralCandidates)
	case o.ApproxK < 1 || o.ApproxK > 8:
		return bad("ApproxK", "in [1, 8]", o.ApproxK)
	case !inOpen01(o.ApproxMinDice):
		return bad("ApproxMinDice", "in (0, 1)", o.ApproxMinDice)
	case !(o.ApproxPenalty >= 1) || math.IsInf(o.ApproxPenalty, 0):
		return bad("ApproxPenalty", "≥ 1", o.ApproxPenalty)
	case o.MatchCandidates < 1 || o.MatchCandidates > 100:
		return bad("MatchCandidates", "in [1, 100]", o.MatchCandidates)
	case o.MinDiscriminative < 0 || o.MinDiscriminative > 1 || math.IsNaN(o.MinDiscriminative):
		return bad("MinDiscriminative", "in [0, 1]", o.MinDiscriminative)
	case o.DateTolerance < 0:
		return bad("DateTolerance", "≥ 0", o.DateTolerance)
	case !inOpen01(o.ClassSupport) && o.ClassSupport != 1:
		return bad("ClassSupport", "in (0, 1]", o.ClassSupport)
	case o.Workers < 0:
		return bad("Workers", "≥ 0", o.Workers)
	case !(o.LinkThreshold >= 0 && o.LinkThreshold <= 1):
		return bad("LinkThreshold", "in [0, 1]", o.LinkThreshold)
	}
	return nil
}

// WriteOptions writes o as indented JSON (the options.json of an output directory).
func WriteOptions(w io.Writer, o Options) error {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadOptions reads options written by WriteOptions. Fields missing from the input keep
// their default value; unknown fields are an error. The result is validated.
func ReadOptions(r io.Reader, name string) (Options, error) {
	o := DefaultOptions()
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return Options{}, fmt.Errorf("read options %s: %w", name, err)
	}
	if err := o.Validate(); err != nil {
		return Options{}, fmt.Errorf("options %s: %w", name, err)
	}
	return o, nil
}
