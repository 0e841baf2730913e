package ontology

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
	"github.com/trawl-dev/trawl/graph"
)

func TestParseTSVLine(t *testing.T) {
	const y = YAGONamespace
	tests := []struct {
		name, line   string
		want         string // canonical triple, "" for a skipped line
		sName, oName string
		err          string
	}{
		{"yago3 fact", "<id_1>\t<Campania>\t<hasArea>\t\"13590\"^^xsd:integer", `<` + y + `Campania> <` + y + `hasArea> "13590"^^<http://www.w3.org/2001/XMLSchema#integer> .`, "", "", ""},
		{"wildcard date", "<id_2>\t<Campania>\t<hasNumberOfPeople>\t\"882-##-##\"^^xsd:date\t", `<` + y + `Campania> <` + y + `hasNumberOfPeople> "882-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"label with language", "<id_3>\t<Belgium>\tskos:prefLabel\t\"Belgium\"@eng\t", `<` + y + `Belgium> <http://www.w3.org/2004/02/skos/core#prefLabel> "Belgium"@eng .`, "", "", ""},
		{"unit datatype", "<id_4>\t<Lazio>\t<hasLatitude>\t\"41.9\"^^<degrees>", `<` + y + `Lazio> <` + y + `hasLatitude> "41.9"^^<` + y + `degrees> .`, "", "", ""},
		{"meta-fact with empty fact id", "\t<id_62xeka>\t<hasAnchorText>\t\"Defender\"@eng", `<` + y + `id_62xeka> <` + y + `hasAnchorText> "Defender"@eng .`, "", "", ""},
		{"full IRI object", "<id_5>\t<Campania>\t<hasWebsite>\t<http://www.regione.campania.it>", `<` + y + `Campania> <` + y + `hasWebsite> <http://www.regione.campania.it> .`, "", "", ""},
		{"category name is a YAGO name", "<id_6>\t<Category:2011_births>\trdf:type\t<wikicategory>", `<` + y + `Category:2011_births> <` + graph.RDFType + `> <` + y + `wikicategory> .`, "", "", ""},
		{"five columns", "<id_7>\t<Carlo>\t<wasBornOnDate>\t\"1920-12-09\"^^xsd:date\t1920.0", `<` + y + `Carlo> <` + y + `wasBornOnDate> "1920-12-09"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"bare yago3-10", "Stan_Collymore\tplaysFor\tEngland_national_football_team", `<` + y + `Stan_Collymore> <` + y + `playsFor> <` + y + `England_national_football_team> .`, "Stan_Collymore", "England_national_football_team", ""},
		{"bare year float", "Ronald_Fogleman\twasBornOnDate\t1942.0", `<` + y + `Ronald_Fogleman> <` + y + `wasBornOnDate> "1942-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .`, "Ronald_Fogleman", "", ""},
		{"bare YYYY.MMDD", "<" + y + "X>\t<" + y + "wasCreatedOnDate>\t1943.0602", `<` + y + `X> <` + y + `wasCreatedOnDate> "1943-06-02"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"bare .0000", "<" + y + "X>\t<" + y + "wasCreatedOnDate>\t1950.0000", `<` + y + `X> <` + y + `wasCreatedOnDate> "1950-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"bare iso date", "<" + y + "X>\t<" + y + "wasBornOnDate>\t1969-03-01", `<` + y + `X> <` + y + `wasBornOnDate> "1969-03-01"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"bare century wildcard", "<" + y + "X>\t<" + y + "wasBornOnDate>\t06##-##-##", `<` + y + `X> <` + y + `wasBornOnDate> "06##-##-##"^^<http://www.w3.org/2001/XMLSchema#date> .`, "", "", ""},
		{"bare coordinate", "Lower_Hutt\thasLongitude\t174.9166666666666", `<` + y + `Lower_Hutt> <` + y + `hasLongitude> "174.9166666666666"^^<` + y + `degrees> .`, "Lower_Hutt", "", ""},
		{"escaped quote in a name", "William_\\u0022Mickey\\u0022_Stevenson\thasGender\tmale", `<` + y + `William_%22Mickey%22_Stevenson> <` + y + `hasGender> <` + y + `male> .`, `William_"Mickey"_Stevenson`, "male", ""},
		{"comment", "// Test", "", "", "", ""},
		{"blank", "  ", "", "", "", ""},
		{"two columns", "<a>\t<b>", "", "", "", "expected 3 to 5 tab-separated columns"},
		{"literal subject", "<id>\t\"x\"\t<p>\t<o>", "", "", "", "the subject must be a resource"},
		{"bad datatype", "<id>\t<s>\t<p>\t\"x\"^^foo:bar", "", "", "", "object: unknown datatype"},
		{"unterminated literal", "<id>\t<s>\t<p>\t\"x", "", "", "", "object: unterminated string literal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ok, err := parseTSVLine([]byte(tc.line))
			if tc.err != "" {
				if err == nil || len(err.msg) < len(tc.err) || err.msg[:len(tc.err)] != tc.err {
					t.Fatalf("error = %v, want %q…", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error: %v", err.msg)
			}
			if tc.want == "" {
				if ok {
					t.Fatalf("line should be skipped, got %v", f.T)
				}
				return
			}
			if got := f.T.String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if err := f.T.Validate(); err != nil {
				t.Errorf("invalid triple: %v", err)
			}
			if f.SName != tc.sName || f.OName != tc.oName {
				t.Errorf("names = %q, %q; want %q, %q", f.SName, f.OName, tc.sName, tc.oName)
			}
		})
	}
}

func TestLabelFromName(t *testing.T) {
	for name, want := range map[string][2]string{
		"Jane_Eyre_(1997_film)":      {"Jane Eyre", "en"},
		"Roger_Suárez":               {"Roger Suárez", "en"},
		`William_"Mickey"_Stevenson`: {`William "Mickey" Stevenson`, "en"},
		"de/Jorge_Cramez":            {"Jorge Cramez", "de"},
	} {
		l, lang := labelFromName(name)
		if l != want[0] || lang != want[1] {
			t.Errorf("labelFromName(%q) = %q, %q; want %q", name, l, lang, want)
		}
	}
}

// TestDatePacking checks the date index encoding: packing round-trips, and packed
// dates sort like their index keys.
func TestDatePacking(t *testing.T) {
	p := func(s string) graph.Date {
		d, ok := graph.ParseDate(s)
		if !ok {
			t.Fatalf("ParseDate(%q) failed", s)
		}
		return d
	}
	keys := []string{"0600-##-##", "06##-##-##", "1838-##-##", "1838-05-12", "-0044-03-15", "969-##-##", "999#-##-##"}
	for _, k := range keys {
		if d := p(k); unpackDate(packDate(d)) != d {
			t.Errorf("pack/unpack of %s", d)
		}
	}
	for i := range keys {
		for j := range keys {
			a, b := p(keys[i]), p(keys[j])
			ka, kb := yearKey(a), yearKey(b)
			if string(ka[:]) < string(kb[:]) && packDate(a) >= packDate(b) {
				t.Errorf("%s sorts before %s by key but not packed", keys[i], keys[j])
			}
		}
	}
}

func TestSortWords(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 47, 1000, 100_000} {
		for _, skew := range []bool{false, true} {
			rs := make([]rec3, n)
			for i := range rs {
				rs[i] = rec3{r.Uint64(), r.Uint64N(5), r.Uint64()}
				if skew { // few distinct first words, like objects with many facts or PSO keys
					rs[i][0] = r.Uint64N(7) << 40
					rs[i][1] = r.Uint64N(3)
				}
			}
			want := slices.Clone(rs)
			slices.SortFunc(want, cmpWords[rec3])
			sortWords(rs, nil)
			if !slices.Equal(rs, want) {
				t.Errorf("n=%d skew=%v: not sorted", n, skew)
			}
		}
	}
}

// TestWordMerger merges 0 to 7 sorted runs, in files read in small blocks and in
// memory, some empty, each half apart, and compares with sorting everything.
func TestWordMerger(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for k := range 8 {
		var srcs []runSource[rec2]
		var all []rec2
		for i := range k {
			n := r.IntN(300)
			if i == 1 {
				n = 0
			}
			rs := make([]rec2, n)
			for j := range rs {
				rs[j] = rec2{r.Uint64N(50) | r.Uint64N(2)<<63, r.Uint64N(4)} // duplicates, both halves
			}
			slices.SortFunc(rs, cmpWords[rec2])
			all = append(all, rs...)
			src := runSource[rec2]{split: splitIndex(rs), n: int64(n)}
			if i%2 == 0 {
				src.path = filepath.Join(dir, fmt.Sprintf("run-%d-%d", k, i))
				if err := writeFixedRun(src.path, rs); err != nil {
					t.Fatal(err)
				}
			} else {
				src.mem = rs
			}
			srcs = append(srcs, src)
		}
		slices.SortFunc(all, cmpWords[rec2])
		lit, _ := slices.BinarySearchFunc(all, literalBit, func(r rec2, t uint64) int { return cmp.Compare(r[0], t) })
		for half, want := range map[int][]rec2{halfAll: all, halfLow: all[:lit], halfLit: all[lit:]} {
			m, err := openMerger(srcs, half, 48) // three records per read
			if err != nil {
				t.Fatal(err)
			}
			var got []rec2
			for {
				rec, ok, err := m.next()
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				got = append(got, rec)
			}
			if err := m.close(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d runs, half %d: got %d records, want %d (or not in order)", k, half, len(got), len(want))
			}
		}
	}
}

// TestVarMerger sorts variable-length records with buffers small enough for several
// runs, some written to files, and checks each half of the merge against sorting
// everything by keys: the same records, in key order.
func TestVarMerger(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := newVarSorter("terms", t.TempDir(), 1<<20) // buffers of 4,096 records
	defer s.release()
	var all []varItem
	for range 5 {
		items := make([]varItem, 3000)
		for i := range items {
			k1 := r.Uint64N(2000) | r.Uint64N(2)<<63
			items[i] = varItem{k1: k1, k2: r.Uint64N(3), data: fmt.Appendf(nil, "term %d %d", k1, r.IntN(2))}
		}
		all = append(all, items...)
		if err := s.add(items); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.finish(); err != nil {
		t.Fatal(err)
	}
	if s.fileRuns() < 2 {
		t.Fatalf("%d runs in files, want several", s.fileRuns())
	}
	key := func(it varItem) string { return fmt.Sprintf("%020d %020d %s", it.k1, it.k2, it.data) }
	for _, half := range []int{halfAll, halfLow, halfLit} {
		var want []string
		for _, it := range all {
			if half == halfAll || (half == halfLit) == (it.k1 >= literalBit) {
				want = append(want, key(it))
			}
		}
		slices.Sort(want)
		m, err := s.merge(half, 64)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		var last varItem
		for n := 0; ; n++ {
			it, ok, err := m.next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			if n > 0 && (it.k1 < last.k1 || it.k1 == last.k1 && it.k2 < last.k2) {
				t.Fatalf("half %d: record %d (%d, %d) after (%d, %d)", half, n, it.k1, it.k2, last.k1, last.k2)
			}
			last = varItem{k1: it.k1, k2: it.k2}
			got = append(got, key(it))
		}
		if err := m.close(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("half %d: %d records, want %d (or different ones)", half, len(got), len(want))
		}
	}
}

func TestAppendKV(t *testing.T) {
	for _, tc := range []struct {
		key, value []byte
		stream     uint32
	}{
		{[]byte("N\x00\x01"), []byte("value"), 1},
		{bytes.Repeat([]byte{'K'}, 300), nil, 200},
		{[]byte("P"), bytes.Repeat([]byte{7}, 70000), 1 << 20},
	} {
		got := z.NewBuffer(1<<10, "test")
		appendKV(got, tc.key, tc.value, tc.stream)
		want := z.NewBuffer(1<<10, "test")
		badger.KVToBuffer(&pb.KV{Key: tc.key, Value: tc.value, Version: 1, StreamId: tc.stream}, want)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("key %d bytes, value %d bytes, stream %d: encodings differ", len(tc.key), len(tc.value), tc.stream)
		}
		got.Release()
		want.Release()
	}
}

// TestPairSpool checks that the pairs of each predicate come back in the order they
// were added, from memory and from the spill file alike.
func TestPairSpool(t *testing.T) {
	for _, limit := range []int64{0, 1 << 12, 1 << 30} {
		sp := newPairSpool(t.TempDir(), limit, 3)
		want := make([][]uint64, 3)
		r := rand.New(rand.NewPCG(3, uint64(limit)))
		for i := range 20_000 {
			p := r.IntN(3)
			if p == 2 && i%50 != 0 {
				p = 0 // a rare predicate
			}
			s, o := uint64(i), r.Uint64()
			if err := sp.add(p, s, o); err != nil {
				t.Fatal(err)
			}
			want[p] = append(want[p], s, o)
		}
		for p := range want {
			var got []uint64
			if err := sp.each(p, func(w []uint64) error { got = append(got, w...); return nil }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want[p]) {
				t.Errorf("limit %d, predicate %d: %d words back, want %d (or a different order)", limit, p, len(got), len(want[p]))
			}
		}
		if (limit < 1<<20) != (sp.file != nil) {
			t.Errorf("limit %d: spill file %v", limit, sp.file != nil)
		}
		if err := sp.close(); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkSortWords sorts 2M random triple records (the radix sort of the load's
// buffers; two goroutines from 65,536 records).
func BenchmarkSortWords(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]rec3, 2_000_000)
	for i := range src {
		src[i] = rec3{r.Uint64(), r.Uint64N(20), r.Uint64()}
	}
	rs := make([]rec3, len(src))
	tmp := make([]rec3, len(src))
	for b.Loop() {
		copy(rs, src)
		sortWords(rs, tmp)
	}
}

// cmpWords orders records by their words, as the sort does.
func cmpWords[R words](a, b R) int {
	for i := 0; i < len(a); i++ {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}
