package graph

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBandKeys(t *testing.T) {
	share := func(a, b string) bool {
		ka, kb := BandKeys(LiteralForm(a)), BandKeys(LiteralForm(b))
		if len(ka) != MinHashes/BandRows || len(kb) != len(ka) {
			t.Fatalf("BandKeys gave %d and %d keys, want %d", len(ka), len(kb), MinHashes/BandRows)
		}
		for i := range ka {
			if ka[i] == kb[i] {
				return true
			}
		}
		return false
	}
	for _, p := range [][2]string{
		{"The Brothers Karamazov", "The Brothers Karamazow"},
		{"Busta Rhymes", "Rhymes, Busta"},
		{"Great Expectations", "great expectation"},
	} {
		if !share(p[0], p[1]) {
			t.Errorf("%q and %q share no band", p[0], p[1])
		}
	}
	if share("Crime and Punishment", "The Brothers Karamazov") {
		t.Errorf("unrelated titles share a band")
	}
	if BandKeys("") != nil {
		t.Errorf("BandKeys(\"\") is not nil")
	}
}

// TestBandKeysFixed pins the band keys of a few forms: Badger KBs store them, so a
// change of the MinHash arithmetic would make existing KBs miss approximate matches.
func TestBandKeysFixed(t *testing.T) {
	for _, c := range []struct {
		norm string
		keys []uint64
	}{
		{"ab", []uint64{0x1f0b427998a2c378, 0x133771da3d06b7c2, 0xabac61559b9506ca, 0xd6925fb25212c6bd, 0x22ae4579eb9f4153, 0xdc1ae264be1f01d9, 0x7287f797456802cc, 0xcc5e143110d352f5, 0x75ef82bbf996b85b, 0xde9af4d5abb9f4f1, 0x28b4d385374bcffe, 0xfc2b54fc5c74a62e, 0x2ea6b15086016fc3, 0x97e228d1e87b3f6, 0x7684784898592209, 0xd2a0ebb9e00f9fdb}},
		{"the lord of the rings", []uint64{0x4f5edc1b30539cc6, 0xa83038c97ed3cbf5, 0x370bdd6f4d2bb1e9, 0xf20d51707dfc895c, 0x3b6392bf798d8b23, 0x14be7990151b2c59, 0xbc5552c291b7a490, 0x78a2e5900e7a3302, 0xaf35963fc8b85a72, 0xa7e5208486ba672, 0x380a48bcc868d367, 0x9960568df8000c49, 0x848bf3bcdfd2dc91, 0x51e98ebb94c9c92f, 0x2e476c32f308b9c1, 0xcbe300d2e04bbc7f}},
		{"vingt mille lieues sous les mers", []uint64{0x62d50e2b62dd5e90, 0x556a16acf0181341, 0x8cdc979ad54b3ce3, 0xd8f7a96fcc72dbe5, 0xf31c748f08d1c032, 0x7d195f6b997508b3, 0x34ac167d53fa7adf, 0x10cb05802903f9a6, 0xd5a3223c8721014a, 0x8f5211111bf044d4, 0x479c3cf610aec115, 0xdb26f697d608cb6b, 0x747d28ac01911a0d, 0x6eb11f969d31114a, 0x3b1648c3e8361bcc, 0xd16fd57393e483e0}},
	} {
		if got := BandKeys(c.norm); !slices.Equal(got, c.keys) {
			t.Errorf("BandKeys(%q) = %#x, want %#x", c.norm, got, c.keys)
		}
		if got := AppendBandKeys([]uint64{7}, c.norm); got[0] != 7 || !slices.Equal(got[1:], c.keys) {
			t.Errorf("AppendBandKeys([7], %q) = %#x", c.norm, got)
		}
	}
}

func BenchmarkBandKeys(b *testing.B) {
	var dst []uint64
	for b.Loop() {
		dst = AppendBandKeys(dst[:0], "vingt mille lieues sous les mers")
	}
}

func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		t    Term
		want LiteralClass
	}{
		{NewLiteral("Hamlet"), LiteralString},
		{NewLangString("Hamlet", "en"), LiteralString},
		{NewLiteral("40"), LiteralPlain},         // a number in a plain string
		{NewLiteral("1838-05-12"), LiteralPlain}, // reads as a date, but is not typed as one
		{NewTyped("1838-05-12", XSD+"date"), LiteralDate},
		{NewTyped("969-##-##", XSD+"date"), LiteralDate},
		{NewTyped("soon", XSD+"date"), LiteralPlain},
		{NewTyped("12", XSD+"integer"), LiteralPlain},
	} {
		if got := ClassOf(tc.t); got != tc.want {
			t.Errorf("ClassOf(%s) = %d, want %d", tc.t, got, tc.want)
		}
	}
}

// TestCandidateTiesByTerm checks that ties are broken by the literals' canonical form,
// not by node identifier: the same literals read in another order give the same list.
func TestCandidateTiesByTerm(t *testing.T) {
	a := mustMemory(t, `<http://e/1> <http://e/p> "Paris"@fr .
<http://e/2> <http://e/p> "paris" .
<http://e/3> <http://e/p> "PARIS"@en .
<http://e/4> <http://e/d> "1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/5> <http://e/d> "1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<http://e/6> <http://e/d> "1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .
`)
	b := mustMemory(t, `<http://e/6> <http://e/d> "1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/5> <http://e/d> "1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime> .
<http://e/4> <http://e/d> "1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date> .
<http://e/3> <http://e/p> "PARIS"@en .
<http://e/2> <http://e/p> "paris" .
<http://e/1> <http://e/p> "Paris"@fr .
`)
	ctx := t.Context()
	for text, want := range map[string][]string{
		"Paris": {`"PARIS"@en`, `"Paris"@fr`, `"paris"`},
		"1838":  {`"1838-##-##"^^<http://www.w3.org/2001/XMLSchema#date>`, `"1838-05-12"^^<http://www.w3.org/2001/XMLSchema#date>`, `"1838-05-12T10:00:00"^^<http://www.w3.org/2001/XMLSchema#dateTime>`},
	} {
		for _, m := range []*Memory{a, b} {
			cs, err := m.Candidates(ctx, text, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != 2 {
				t.Fatalf("Candidates(%q, 2) = %v", text, cs)
			}
			for i, c := range cs {
				if got, _ := m.Term(ctx, c.Node); got.String() != want[i] {
					t.Errorf("Candidates(%q)[%d] = %s, want %s", text, i, got, want[i])
				}
			}
		}
	}
}

// TestSelectForms checks the bucketed selection of the forms to re-score against its
// definition: count the hashes, sort by decreasing count then increasing hash, keep
// the first limit, return them in increasing order.
func TestSelectForms(t *testing.T) {
	want := func(hashes []uint64, self uint64, limit int) []uint64 {
		hits := map[uint64]int{}
		for _, h := range hashes {
			if h != self {
				hits[h]++
			}
		}
		var forms []uint64
		for h := range hits {
			forms = append(forms, h)
		}
		slices.SortFunc(forms, func(a, b uint64) int { return cmp.Or(cmp.Compare(hits[b], hits[a]), cmp.Compare(a, b)) })
		forms = forms[:min(limit, len(forms))]
		slices.Sort(forms)
		return forms
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sx := new(approxScratch)
	for trial := range 2000 {
		n := rng.IntN(600)
		distinct := 1 + rng.IntN(300)
		hashes := make([]uint64, n)
		for i := range hashes {
			hashes[i] = uint64(rng.IntN(distinct))
		}
		self := uint64(rng.IntN(distinct + 5))
		limit := 1 + rng.IntN(160)
		w := want(hashes, self, limit)
		got := selectForms(slices.Clone(hashes), self, limit)
		if !slices.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
			t.Fatalf("trial %d (%d hashes, self %d, limit %d): got %v, want %v", trial, n, self, limit, got, w)
		}
		// The same hashes as the runs of up to 16 band keys, each increasing and
		// without repeats, as a Memory's index stores them, merged by selectRanks.
		copies := map[uint64]int{}
		for _, h := range hashes {
			copies[h]++
		}
		runs := make([][]uint32, 1+rng.IntN(16))
		for h, c := range copies {
			for len(runs) < c {
				runs = append(runs, nil) // more keys than the text has: fine for the merge
			}
			for _, i := range rng.Perm(len(runs))[:c] {
				runs[i] = append(runs[i], uint32(h))
			}
		}
		for _, r := range runs {
			slices.Sort(r)
		}
		gotRanks := sx.selectRanks(runs, uint32(self), limit) // sx reused, as pooled
		if len(gotRanks) != len(w) || !slices.EqualFunc(gotRanks, w, func(a uint32, b uint64) bool { return uint64(a) == b }) {
			t.Fatalf("trial %d (%d runs, self %d, limit %d): selectRanks gave %v, want %v", trial, len(runs), self, limit, gotRanks, w)
		}
	}
}
