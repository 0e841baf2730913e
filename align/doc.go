// Package align aligns two knowledge bases with the PARIS model: instance equivalence,
// relation subsumption (with joins of up to three steps) and class subsumption, computed
// iteratively from literal anchors and relation functionalities. It also writes the
// alignment (alignment.tsv, the OAEI Alignment format, owl:sameAs links) and scores it
// against a reference alignment.
//
// # Use
//
//	res, err := align.Align(ctx, kb1, kb2, align.DefaultOptions())
//	err = align.WriteDir(dir, res, align.RunInfo{KB1: "graph.nt", KB2: "yago"})
//	gold, err := align.LoadGold(ctx, "gold.csv", kb1, kb2)
//	scores := align.Evaluate(res, gold)
//
// It reads knowledge bases through small interfaces defined here (Dictionary,
// FactReader, EntityLister, Schema, LiteralMatcher, Taxonomy, and the optional batch
// readers BatchFactReader and BatchLiteralMatcher), so that a backend implements what
// it can: Align asks KB1 for a Source and KB2 for a Reference. The in-memory graph of
// package graph (graph.Memory, for N-Triples files and record graphs) and the Badger
// store of package ontology implement all of them but the batch readers (KB). KB1 is
// read completely; of KB2 only the neighbourhood reached from KB1's literal candidates
// and from the equalities is read, so KB2 can be a YAGO-sized store.
//
// # Cost
//
// Every pass is linear in the facts it reads, up to logarithmic factors, and runs on
// all cores (Options.Workers) with a result that does not depend on their number. An
// evidence factor depends on the pair of relations, not on the candidate, so a relation
// whose factor falls below the evidence cut (a value shared by many entities) is skipped
// without reading its candidates. A relation pair less discriminative than
// MinDiscriminative (an age, a postcode) cannot make a candidate on its own: its block
// of entities proposes none and only scores, by binary search, the candidates that
// discriminative evidence proposed, so the evidence read per fact does not grow with
// the number of entities that share a value. The relation passes meet in the middle
// from the smaller side. KB2 is read in batches between the parallel steps.
//
// # Model
//
// Each iteration reads only the values of the previous one (Jacobi style):
//
//  1. Instances. For every KB1 entity y1, every fact r1(x1, y1) whose x1 has a
//     counterpart x2 (a matching literal, or the kept partner of the previous iteration
//     if ≥ θ) and every fact r2(x2, y2) of KB2 multiply the candidate's product by
//     (1 − Pr(x1≡x2)·Pr(r2⊆r1)/ε·fun(r1)/ε)·(1 − Pr(x1≡x2)·Pr(r1⊆r2)/ε·fun(r2)/ε);
//     Pr(y1≡y2) = 1 − product. In the first two iterations, relation pairs without a
//     learned score count with ι/(1 + 20·extra steps). Functionality is PARIS's harmonic
//     one (distinct subjects / facts); a join's is the smallest of its steps'.
//     Before the assignment, trawl's evidence factors (factors.go, decision record
//     2026-11-27-linking-evidence-factors) keep only candidates supported by a
//     discriminative relation pair (inverse functionality ≥ 0.7 on both sides, KB1's
//     counting copies of one entity once, copies.go), ask two agreeing relations of an
//     entity that has two comparable ones, and weigh disagreement on aligned relations
//     and a candidate outside the class of its peers' partners as likelihood ratios on
//     the odds.
//  2. A 1:1 assignment: greedy by decreasing score over each entity's best candidates;
//     with Options.OneToMany, each KB1 entity keeps its best candidate (a source that
//     lists an entity several times links every copy).
//  3. Relations, both directions:
//     Pr(r⊆r') = Σ_{r(x,y)} [1 − Π_{r'(x',y')} (1 − Pr(x≡x')·Pr(y≡y'))] /
//     (Σ_{r(x,y)} [1 − Π_{x',y'} (1 − Pr(x≡x')·Pr(y≡y'))] + 10), where the normaliser n
//     counts only facts whose two arguments have counterparts, and 10 damps relations
//     seen on few facts (n/(n+10) for a perfect one).
//
// After the last iteration, Pr(c⊆d) = (1/|c|)·Σ_{x∈c} Pr(x≡y), y ∈ d, for classes.
//
// Literals match exactly, by normal form (case, accents, punctuation, bracketed parts
// and stop words ignored; dates by inclusion, with YAGO's '#' wildcards), or
// approximately (k-gram MinHash candidates re-scored by the multiset Dice coefficient,
// kept at Dice ≥ 0.78 and scored (Dice/1.1)²), as Options.Literals says.
//
// A join is a path of relations such as schema:author / rdfs:label, read from the
// subject. Paths never step through a literal, never revisit a node, and never take a
// relation right after its inverse. Facts along joins are found by meeting in the middle
// between the two counterparts, so KB2 is read only around them.
//
// # References
//
// F. M. Suchanek, S. Abiteboul, P. Senellart, "PARIS: Probabilistic Alignment of
// Relations, Instances, and Schema", PVLDB 5(3), 2011 (§4 for the equations). The
// behaviour where the paper is silent (ε = 1.01, the 0.01 evidence cut, the bootstrap
// value ι and its length penalty, the n/(n+10) damping, joins, approximate literals)
// follows the semantics of the reference code v0.3 as described in the project's PARIS
// notes; the joins and the literal normalisation are the adaptations of M. Oita,
// "Deriving semantic objects from the structured web", PhD thesis, Télécom ParisTech
// 2012, ch. 3 §3.6. No code was copied. Where trawl departs from PARIS's defaults, the
// records in docs/decisions say why, with numbers.
package align
