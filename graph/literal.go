package graph

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Literal matching: the one definition of which literals of a KB match a text, shared by
// the in-memory graph (Memory) and the Badger store of package ontology. Each KB stores
// its own index (LiteralIndex); MatchLiterals runs the lookup over it, so both KBs
// answer Candidates identically on the same data.
//
// A literal is matched by its class (ClassOf):
//   - a date (a literal typed xsd:date, xsd:dateTime, xsd:gYear … whose lexical form
//     parses, see DateOf) matches a text that reads as a date (ParseQueryDate) when one
//     date includes the other;
//   - every other literal matches a text with the same normal form (LiteralForm: folded
//     case and accents, no punctuation, stop words or bracketed parts), and
//   - a string (a simple or language-tagged literal that does not read as a number or a
//     date, IsStringLiteral) also matches approximately when nothing matches exactly:
//     MinHash LSH on the byte trigrams of the normal form finds candidate forms, which
//     are re-scored with the multiset byte 2-gram Dice coefficient.
//
// References: the normal forms follow M. Oita's thesis, ch. 3 (stripping bracketed text
// and stop words); the shingling, Dice re-scoring and "no approximate lookup when an exact
// match exists" follow PARIS (F. M. Suchanek, S. Abiteboul, P. Senellart, PVLDB 5(3),
// 2011) and its v0.3 reference code; LSH banding is from A. Rajaraman and J. Ullman,
// "Mining of Massive Datasets", §3.4; date inclusion with '#' wildcards follows YAGO's
// javatools DateParser.

const (
	// ShingleK is the k of the byte k-grams of the Dice score of an approximate
	// Candidate (2, as in the thesis prototype).
	ShingleK = 2
	// MinApproxScore is the default lowest Dice coefficient of an approximate
	// candidate. The aligner applies its own, stricter threshold (PARIS: 0.78).
	MinApproxScore = 0.5

	// MaxExactForm bounds the normal forms that are indexed for exact lookup (longer
	// literals are descriptions, not names); MaxApproxForm bounds those indexed for
	// approximate lookup.
	MaxExactForm  = 512
	MaxApproxForm = 160

	// BandShingleK, MinHashes and BandRows define the LSH index: the MinHash signature
	// of the byte trigrams of a normal form (a form shorter than three bytes is one
	// shingle), 32 hash functions cut into 16 bands of 2 rows. Two forms share a band
	// with probability 1 − (1 − J²)¹⁶: 0.996 at a trigram Jaccard of 0.55 (one changed
	// letter in a ten-letter word), 0.78 at 0.3. Measured on the 123k YAGO3-10 labels
	// (docs/decisions/2026-11-27-one-literal-match.md): of the pairs with a 2-gram Dice
	// ≥ 0.78, 99.7 % of "First Last" → "Last, First" and 99.9 % of one-letter typos
	// are found among the 128 forms re-scored, against 95.6 % and 97.9 % with 8 bands.
	// Trigrams rather than bigrams keep the shingle vocabulary large enough that band
	// buckets stay small. They are part of the stored index of package ontology (its
	// LayoutVersion).
	BandShingleK = 3
	MinHashes    = 32
	BandRows     = 2
	numBands     = MinHashes / BandRows

	// MaxBandPostings bounds the normal forms of one band key: a band that more forms
	// share (the minimum hashes of the most common trigrams) discriminates nothing and
	// is left out of the index, as search engines leave out stop words.
	MaxBandPostings = 1024
	// MaxApproxForms bounds the forms re-scored by one approximate lookup: those that
	// share the most bands with the text, ties by increasing FormHash.
	MaxApproxForms = 128
)

// LiteralClass says how a literal is matched.
type LiteralClass uint8

// The literal classes.
const (
	LiteralPlain  LiteralClass = iota // exact normal form only: numbers, codes, typed values
	LiteralString                     // exact normal form, then approximate
	LiteralDate                       // date inclusion
)

// ClassOf returns how the literal t is matched.
func ClassOf(t Term) LiteralClass {
	if _, ok := DateOf(t); ok {
		return LiteralDate
	}
	if IsStringLiteral(t) {
		return LiteralString
	}
	return LiteralPlain
}

// IsStringLiteral reports whether t is a literal whose text is a string to compare
// approximately: a simple or language-tagged literal that does not read as a number or
// a date. Numbers and dates are only ever matched exactly (or dates by inclusion).
func IsStringLiteral(t Term) bool {
	if t.Kind != KindLiteral || t.Datatype != "" {
		return false
	}
	return !looksNumeric(t.Value)
}

// looksNumeric reports whether s, spaces trimmed, reads as a number (strconv.ParseFloat
// accepts it) or as a date (ParseDate).
//
// It is called for every literal of both KBs and every looked-up text, most of them
// names; strconv.ParseFloat allocates an error for each text it refuses, so only texts
// that may be numbers (mayBeFloat) reach it.
func looksNumeric(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if mayBeFloat(s) {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return true
		}
	}
	_, ok := ParseDate(s)
	return ok
}

// mayBeFloat reports whether strconv.ParseFloat(s, 64) could accept s: false only
// for texts it refuses (it is true for every text it accepts, and for a few it
// refuses, such as "1e400" or "0x1"). It accepts a sign, then "inf", "infinity" or
// "nan" in any case, a hexadecimal form (left to ParseFloat), or decimal digits and
// underscores with at most one point and an optional exponent.
func mayBeFloat(s string) bool {
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	if strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") || strings.EqualFold(s, "nan") {
		return true
	}
	if len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x' {
		return true
	}
	i, digits := skipDigits(s, 0)
	if i < len(s) && s[i] == '.' {
		var more bool
		i, more = skipDigits(s, i+1)
		digits = digits || more
	}
	if !digits {
		return false
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		i, _ = skipDigits(s, i)
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// skipDigits returns the index of the first byte of s from i that is neither a decimal
// digit nor an underscore, and whether it passed a digit.
func skipDigits(s string, i int) (int, bool) {
	digits := false
	for ; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_'); i++ {
		digits = digits || s[i] != '_'
	}
	return i, digits
}

// LiteralForm returns the normal form of a literal's text or of a search text
// (textnorm.Literal); "" for text without letters or digits, which matches nothing.
func LiteralForm(text string) string { return textnorm.Literal(text) }

// FormHash is the 64-bit hash of a normal form (xxhash), the key of the exact index
// and the tie-breaker among approximate candidate forms.
func FormHash(norm string) uint64 { return xxhash.Sum64String(norm) }

// minHashMul and minHashAdd are the fixed odd multipliers and the offsets of the
// MinHash functions h_i(x) = a_i·x + b_i (mod 2⁶⁴) over the 64-bit hashes x of the
// shingles (two arrays, so that the signature loop reads them in place).
var minHashMul, minHashAdd = func() (a, b [MinHashes]uint64) {
	x := uint64(0x7472_6177_6c21) // "trawl!"
	for i := range a {
		x += 0x9E3779B97F4A7C15
		a[i] = Mix64(x) | 1
		x += 0x9E3779B97F4A7C15
		b[i] = Mix64(x)
	}
	return a, b
}()

// BandKeys returns the LSH band keys of a normal form: its MinHash signature over
// byte trigram shingles, cut into bands of BandRows values, each band hashed with its
// number. It returns nil for "".
func BandKeys(norm string) []uint64 {
	if norm == "" {
		return nil
	}
	return AppendBandKeys(make([]uint64, 0, numBands), norm)
}

// AppendBandKeys appends the band keys of norm (BandKeys) to dst; nothing for "".
func AppendBandKeys(dst []uint64, norm string) []uint64 {
	if norm == "" {
		return dst
	}
	var sig [MinHashes]uint64
	for i := range sig {
		sig[i] = 1<<64 - 1
	}
	if len(norm) < BandShingleK {
		minHashShingle(&sig, packBytes(norm))
	} else {
		for i := 0; i+BandShingleK <= len(norm); i++ {
			minHashShingle(&sig, packBytes(norm[i:i+BandShingleK]))
		}
	}
	for b := range numBands {
		h := uint64(b+1) * 0x9E3779B97F4A7C15
		for _, v := range sig[b*BandRows : (b+1)*BandRows] {
			h = Mix64(h ^ v)
		}
		dst = append(dst, h)
	}
	return dst
}

// minHashShingle lowers the signature sig with the shingle x.
func minHashShingle(sig *[MinHashes]uint64, x uint64) {
	x = Mix64(x)
	a, b := &minHashMul, &minHashAdd
	for i := range sig {
		sig[i] = min(sig[i], a[i]*x+b[i])
	}
}

// packBytes packs up to 7 bytes and the length into a uint64.
func packBytes(s string) uint64 {
	x := uint64(len(s))
	for i := 0; i < len(s); i++ {
		x = x<<8 | uint64(s[i])
	}
	return x
}

// Mix64 is the splitmix64 finaliser.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// DatedLiteral is a date literal of an index, with its date.
type DatedLiteral struct {
	Node ID
	Date Date
}

// IndexedForm is a normal form of an index with the literal nodes that have it.
type IndexedForm struct {
	Norm  string
	Nodes []ID
}

// LiteralIndex is the storage side of literal matching, as a KB keeps it. Every literal
// of class LiteralPlain or LiteralString whose normal form has at most MaxExactForm
// bytes is indexed by form; every LiteralDate literal by date; the forms of
// LiteralString literals of at most MaxApproxForm bytes under their BandKeys (a band
// key with more than MaxBandPostings forms is left out).
type LiteralIndex interface {
	// LiteralsWithForm returns the literal nodes whose normal form is norm.
	LiteralsWithForm(ctx context.Context, norm string) ([]ID, error)
	// DatedLiterals returns the date literals whose date may overlap d (a superset is
	// fine: MatchLiterals checks Overlaps).
	DatedLiterals(ctx context.Context, d Date) ([]DatedLiteral, error)
	// FormsInBands returns the FormHash of every form indexed under each of the band
	// keys, once per key it is under, in a slice the caller may reorder.
	FormsInBands(ctx context.Context, keys []uint64) ([]uint64, error)
	// FormsWithHash returns the indexed forms whose FormHash is h (more than one only
	// on a hash collision) with their literal nodes, in a slice that later calls leave
	// unchanged (an approximate lookup holds the forms of all its hashes at once).
	FormsWithHash(ctx context.Context, h uint64) ([]IndexedForm, error)
	// Term returns the term of a literal node.
	Term(ctx context.Context, n ID) (Term, error)
}

// MatchLiterals returns up to k literal nodes of ix that match text (see the rules
// above), best first:
//  1. the literals with the text's normal form (Exact, score 1);
//  2. the date literals that include the text's date or that it includes (Exact,
//     score 1), by date;
//  3. only when neither found anything: approximate matches of a string text with a
//     Dice coefficient of at least minScore (below 1), by decreasing score.
//
// Ties are broken by the literals' canonical N-Triples form, never by node identifier,
// so that two KBs holding the same literals answer the same whatever their identifiers.
func MatchLiterals(ctx context.Context, ix LiteralIndex, text string, k int, minScore float64) ([]Candidate, error) {
	if k <= 0 {
		return nil, ctx.Err()
	}
	norm := LiteralForm(text)
	var out []Candidate
	if norm != "" && len(norm) <= MaxExactForm {
		ids, err := ix.LiteralsWithForm(ctx, norm)
		if err != nil {
			return nil, err
		}
		cs := make([]rankedLiteral, len(ids))
		for i, id := range ids {
			cs[i] = rankedLiteral{c: Candidate{Node: id, Exact: true, Score: 1}}
		}
		if cs, err = rankLiterals(ctx, ix, cs, k, func(a, b rankedLiteral) int { return 0 }); err != nil {
			return nil, err
		}
		out = appendCandidates(out, cs)
	}
	if d, ok := ParseQueryDate(text); ok && len(out) < k {
		dated, err := ix.DatedLiterals(ctx, d)
		if err != nil {
			return nil, err
		}
		var cs []rankedLiteral
		for _, x := range dated {
			if d.Overlaps(x.Date) {
				cs = append(cs, rankedLiteral{c: Candidate{Node: x.Node, Exact: true, Score: 1}, date: x.Date})
			}
		}
		if cs, err = rankLiterals(ctx, ix, cs, k-len(out), func(a, b rankedLiteral) int { return a.date.Compare(b.date) }); err != nil {
			return nil, err
		}
		out = appendCandidates(out, cs)
	}
	if len(out) > 0 || norm == "" || len(norm) > MaxApproxForm || looksNumeric(text) {
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cs, err := approxLiterals(ctx, ix, norm, minScore, k)
	if err != nil {
		return nil, err
	}
	cs, err = rankLiterals(ctx, ix, cs, k, func(a, b rankedLiteral) int { return cmp.Compare(b.c.Score, a.c.Score) })
	if err != nil {
		return nil, err
	}
	return appendCandidates(out, cs), nil
}

// approxLiterals finds the forms that share the most bands with norm and returns the
// literals of those whose Dice score with norm is at least minScore (a Memory's index
// may leave out those that cannot be among the first k: see literalIndex.approxLiterals).
func approxLiterals(ctx context.Context, ix LiteralIndex, norm string, minScore float64, k int) ([]rankedLiteral, error) {
	if rx, ok := ix.(*literalIndex); ok {
		return rx.approxLiterals(ctx, norm, minScore, k)
	}
	hashes, err := ix.FormsInBands(ctx, BandKeys(norm))
	if err != nil {
		return nil, err
	}
	forms := selectForms(hashes, FormHash(norm), MaxApproxForms)
	// The forms are looked up first, then the first byte of each is read, then they are
	// scored: in an index larger than the processor's caches each of these reads misses,
	// and loops whose reads do not depend on one another keep many misses in flight
	// where scoring each form as it is found would wait for them one by one.
	found := make([][]IndexedForm, len(forms))
	for i, h := range forms {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fs, err := ix.FormsWithHash(ctx, h)
		if err != nil {
			return nil, err
		}
		found[i] = fs
	}
	var first byte
	for _, fs := range found {
		for _, f := range fs {
			if len(f.Norm) > 0 {
				first |= f.Norm[0]
			}
		}
	}
	runtime.KeepAlive(first) // the reads are the point
	var sc formScorer
	sc.init(norm, minScore)
	for _, fs := range found {
		for _, f := range fs {
			sc.score(f.Norm, f.Nodes)
		}
	}
	return sc.out, nil
}

// formScorer scores the forms of an approximate lookup against its text and collects
// the literals of those whose Dice score is at least minScore.
type formScorer struct {
	norm     string
	minScore float64
	q, grams []uint32
	out      []rankedLiteral
}

func (s *formScorer) init(norm string, minScore float64) {
	s.norm, s.minScore = norm, minScore
	s.q = bigrams(nil, norm)
}

func (s *formScorer) score(form string, nodes []ID) {
	if form == s.norm {
		return
	}
	s.grams = bigrams(s.grams[:0], form)
	s.scoreGrams(s.grams, nodes)
}

// scoreGrams scores a form other than the text by its sorted 2-grams.
func (s *formScorer) scoreGrams(grams []uint32, nodes []ID) {
	if score, ok := s.diceOf(grams); ok {
		s.add(score, nodes)
	}
}

// diceOf returns the score of a form other than the text, by its sorted 2-grams, and
// whether it is kept (at least minScore and not 0).
func (s *formScorer) diceOf(grams []uint32) (float64, bool) {
	score, ok := diceAtLeast(s.q, grams, s.minScore)
	if !ok || score == 0 {
		return 0, false
	}
	return min(score, 0.999999), true // distinct normal forms are never an exact match
}

// add collects the literals of a form kept with score.
func (s *formScorer) add(score float64, nodes []ID) {
	for _, id := range nodes {
		s.out = append(s.out, rankedLiteral{c: Candidate{Node: id, Score: score}})
	}
}

// selectForms returns, in increasing order, the at most limit distinct hashes of
// hashes, self left out, that occur most often, ties by increasing hash. hashes is
// sorted in place. A form's count is the number of bands it shares with the text, at
// most the number of band keys asked, so the counts are bucketed rather than sorted.
func selectForms[T uint32 | uint64](hashes []T, self T, limit int) []T {
	slices.Sort(hashes)
	// Run-length encode in place: forms[i] is a distinct hash, counts[i] its count.
	forms := hashes[:0]
	var counts []int32
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		if h := hashes[i]; h != self {
			forms = append(forms, h)
			counts = append(counts, int32(j-i))
		}
		i = j
	}
	return topForms(forms, counts, limit)
}

// topForms returns, in increasing order, the at most limit forms of forms (distinct,
// increasing) with the highest counts, ties by increasing form; it reuses forms.
func topForms[T uint32 | uint64](forms []T, counts []int32, limit int) []T {
	if len(forms) <= limit {
		return forms
	}
	top := slices.Max(counts)
	// The smallest count c such that the forms counted at least c are at least limit;
	// all forms above c are taken, and those at c in increasing hash order.
	perCount := make([]int, top+1)
	for _, c := range counts {
		perCount[c]++
	}
	cut, above := top, 0
	for ; cut > 0 && above+perCount[cut] < limit; cut-- {
		above += perCount[cut]
	}
	atCut := limit - above
	out := forms[:0] // forms are read ahead of the writes
	for i, h := range forms {
		switch c := counts[i]; {
		case c > cut:
			out = append(out, h)
		case c == cut && atCut > 0:
			out = append(out, h)
			atCut--
		}
	}
	return out
}

// rankedLiteral is a candidate with what orders it.
type rankedLiteral struct {
	c    Candidate
	date Date
	term string // canonical N-Triples form, fetched for ties only
}

func appendCandidates(out []Candidate, cs []rankedLiteral) []Candidate {
	for _, c := range cs {
		out = append(out, c.c)
	}
	return out
}

// rankLiterals sorts cs by key, breaks ties by the literals' canonical N-Triples form
// (read from ix only for the ties that decide the first k), and returns the first k.
// Equal nodes are kept once.
func rankLiterals(ctx context.Context, ix LiteralIndex, cs []rankedLiteral, k int, key func(a, b rankedLiteral) int) ([]rankedLiteral, error) {
	slices.SortFunc(cs, func(a, b rankedLiteral) int { return cmp.Or(key(a, b), cmp.Compare(a.c.Node, b.c.Node)) })
	cs = slices.CompactFunc(cs, func(a, b rankedLiteral) bool { return a.c.Node == b.c.Node })
	end := min(k, len(cs))
	for end > 0 && end < len(cs) && key(cs[end-1], cs[end]) == 0 {
		end++
	}
	cs = cs[:end]
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && key(cs[i], cs[j]) == 0 {
			j++
		}
		if j-i > 1 {
			for x := i; x < j; x++ {
				t, err := ix.Term(ctx, cs[x].c.Node)
				if err != nil {
					return nil, err
				}
				cs[x].term = t.String()
			}
			slices.SortFunc(cs[i:j], func(a, b rankedLiteral) int { return strings.Compare(a.term, b.term) })
		}
		i = j
	}
	return cs[:min(k, len(cs))], nil
}

// bigrams appends the sorted byte 2-grams of s to dst, each coded as a uint32
// (1<<16 | b0<<8 | b1); a string of one byte is its own single gram (the byte itself),
// as in textnorm.KGrams.
func bigrams(dst []uint32, s string) []uint32 {
	start := len(dst)
	if len(s) < ShingleK {
		if s != "" {
			dst = append(dst, uint32(s[0]))
		}
		return dst
	}
	for i := 0; i+1 < len(s); i++ {
		dst = append(dst, 1<<16|uint32(s[i])<<8|uint32(s[i+1]))
	}
	slices.Sort(dst[start:])
	return dst
}

// dice returns the multiset Dice coefficient of two sorted gram lists:
// 2·|common| / (|a| + |b|), equal to textnorm.Dice with k = 2.
func dice(a, b []uint32) float64 {
	score, _ := diceAtLeast(a, b, 0)
	return score
}

// diceAtLeast returns dice(a, b) and true when it is not below minScore; false as soon
// as the grams left to compare cannot bring it there (then the score is 0).
func diceAtLeast(a, b []uint32, minScore float64) (float64, bool) {
	na, nb := len(a), len(b)
	if na == 0 || nb == 0 {
		return 0, !(0 < minScore)
	}
	// need is the fewest common grams whose score is not below minScore, by the same
	// arithmetic as the score (min(na, nb)+1 when none is enough).
	total, most := float64(na+nb), min(na, nb)
	enough := func(c int) bool { return !(2*float64(c)/total < minScore) }
	need := 0
	if g := minScore * total / 2; g > 0 {
		need = min(int(g), most+1)
	}
	for need > 0 && enough(need-1) {
		need--
	}
	for need <= most && !enough(need) {
		need++
	}
	if need > most {
		return 0, false
	}
	common := 0
	for i, j := 0, 0; i < na && j < nb; {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
			if common+na-i < need {
				return 0, false
			}
		default:
			j++
			if common+nb-j < need {
				return 0, false
			}
		}
	}
	score := 2 * float64(common) / total
	return score, !(score < minScore)
}
