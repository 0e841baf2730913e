//go:build unix

package align

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
)

// Benchmarks. The figures in docs/benchmarks.md come from:
//
//	go test ./align -run '^$' -bench '^Benchmark(Persons1|Restaurants)' -benchtime 5x
//
// and, for the scaling benchmarks (minutes, gigabytes), scale_test.go.
//
// OAEI runs include neither file parsing nor the literal index (both happen once per
// KB); the CLI figures of docs/benchmarks.md include them.

func benchOAEI(b *testing.B, a, c string, joins int) {
	kb1, kb2 := loadPair(b, a, c)
	opts := DefaultOptions()
	opts.StopTolerance = 0 // ten iterations, as the Java anchor
	opts.JoinLength, opts.JoinSum = joins, joins+1
	if joins == 3 {
		opts.JoinSum = 4
	}
	if _, err := Align(b.Context(), kb1, kb2, opts); err != nil { // builds the literal index
		b.Fatal(err)
	}
	iters := 0
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := Align(b.Context(), kb1, kb2, opts)
		if err != nil {
			b.Fatal(err)
		}
		iters += len(res.Iterations)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(iters)/float64(b.N), "iterations/op")
}

func BenchmarkPersons1NoJoins(b *testing.B) {
	benchOAEI(b, "Persons1/person11.nt", "Persons1/person12.nt", 1)
}
func BenchmarkPersons1Joins2(b *testing.B) {
	benchOAEI(b, "Persons1/person11.nt", "Persons1/person12.nt", 2)
}
func BenchmarkPersons1Joins3(b *testing.B) {
	benchOAEI(b, "Persons1/person11.nt", "Persons1/person12.nt", 3)
}
func BenchmarkRestaurantsNoJoins(b *testing.B) {
	benchOAEI(b, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt", 1)
}
func BenchmarkRestaurantsJoins2(b *testing.B) {
	benchOAEI(b, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt", 2)
}

// synthKB generates a YAGO-shaped KB in YAGO 4.5 vocabulary with about 1.07 million
// facts (plus rdf:type facts): works with a title, an author, a date, a genre and a
// publisher; people with a name, a birth date (some with '#' wildcards), a gender (a hub
// of ~40k edges each), a nationality and a birth place; places, countries, publishers and
// genres with names. Names are made of syllables, so that labels repeat as real ones do.
// It returns the triples and, for records, the works' (title, author name, year,
// publisher name, genre name).
func synthKB(works, people int) ([]graph.Triple, [][5]string) {
	rng := rand.New(rand.NewPCG(11, 13))
	syl := []string{"ka", "lo", "mer", "di", "an", "te", "vo", "ri", "sa", "ul", "bren", "tho", "mi", "gra", "el", "pa", "nor", "is", "qua", "de", "fen", "ro", "li", "ba"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(syl[rng.IntN(len(syl))])
		}
		s := b.String()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	res := func(kind string, i int) graph.Term { return graph.NewIRI(fmt.Sprintf("%s%s_%d", yagoNS, kind, i)) }
	schema := func(p string) graph.Term { return graph.NewIRI(schemaNS + p) }
	label := graph.NewIRI(graph.RDFSLabel)
	typ := graph.NewIRI(graph.RDFType)
	var ts []graph.Triple
	add := func(s, p, o graph.Term) { ts = append(ts, graph.Triple{S: s, P: p, O: o}) }
	lit := graph.NewLiteral
	date := func(y, m, d int, wild bool) graph.Term {
		if wild {
			return graph.NewTyped(fmt.Sprintf("%04d-##-##", y), graph.XSD+"date")
		}
		return graph.NewTyped(fmt.Sprintf("%04d-%02d-%02d", y, m, d), graph.XSD+"date")
	}
	const countries, places, publishers, genres = 200, 6000, 2000, 60
	names := map[string][]string{}
	for i := range countries {
		n := word(3)
		names["country"] = append(names["country"], n)
		add(res("country", i), label, lit(n))
		add(res("country", i), typ, schema("Country"))
	}
	for i := range places {
		n := word(2) + " " + word(1)
		add(res("place", i), label, lit(n))
		add(res("place", i), schema("containedInPlace"), res("country", rng.IntN(countries)))
		add(res("place", i), typ, schema("Place"))
	}
	for i := range publishers {
		n := word(2) + " " + []string{"Press", "Books", "Verlag", "Editions", "House"}[rng.IntN(5)]
		names["publisher"] = append(names["publisher"], n)
		add(res("org", i), label, lit(n))
		add(res("org", i), schema("location"), res("place", rng.IntN(places)))
		add(res("org", i), typ, schema("Organization"))
	}
	for i := range genres {
		n := word(2) + " fiction"
		names["genre"] = append(names["genre"], n)
		add(res("genre", i), label, lit(n))
	}
	for i := range people {
		n := word(2) + " " + word(2)
		names["person"] = append(names["person"], n)
		p := res("person", i)
		add(p, label, lit(n))
		add(p, schema("birthDate"), date(1800+rng.IntN(200), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(5) == 0))
		add(p, schema("gender"), res("gender", rng.IntN(2)))
		add(p, schema("nationality"), res("country", rng.IntN(countries)))
		add(p, schema("birthPlace"), res("place", rng.IntN(places)))
		add(p, typ, schema("Person"))
	}
	var recs [][5]string
	for i := range works {
		title := word(1+rng.IntN(2)) + " " + word(2)
		if rng.IntN(3) == 0 {
			title = "The " + title
		}
		w := res("work", i)
		// Authorship is skewed: a few people write many works.
		a := int(float64(people) * rng.Float64() * rng.Float64())
		y := 1850 + rng.IntN(170)
		pub, gen := rng.IntN(publishers), rng.IntN(genres)
		add(w, label, lit(title))
		add(w, schema("author"), res("person", a))
		add(w, schema("datePublished"), graph.NewTyped(fmt.Sprint(y), graph.XSD+"gYear"))
		add(w, schema("publisher"), res("org", pub))
		add(w, schema("genre"), res("genre", gen))
		add(w, typ, schema("Book"))
		recs = append(recs, [5]string{title, names["person"][a], fmt.Sprint(y), names["publisher"][pub], names["genre"][gen]})
	}
	add(schema("Book"), graph.NewIRI(graph.SubClassOf), schema("CreativeWork"))
	return ts, recs
}

// synthRecords builds the record graph of a source with n records and ten attributes,
// of which inKB describe works of the KB (taken every len/inKB works).
func synthRecords(works [][5]string, n, inKB int) []graph.Triple {
	rng := rand.New(rand.NewPCG(5, 9))
	var ts []graph.Triple
	attr := func(a string) graph.Term { return graph.NewIRI(srcNS + "attr/" + a) }
	for i := range n {
		r := graph.NewIRI(fmt.Sprintf("%srecord/%d", srcNS, i))
		var w [5]string
		if i < inKB {
			w = works[i*(len(works)/inKB)]
		} else {
			w = [5]string{fmt.Sprintf("Unlisted Volume %d of the Series", i), fmt.Sprintf("Anonymous Writer %d", i%97),
				fmt.Sprint(1900 + i%120), fmt.Sprintf("Small Press %d", i%13), "unknown"}
		}
		add := func(a, v string) { ts = append(ts, graph.Triple{S: r, P: attr(a), O: graph.NewLiteral(v)}) }
		add("title", w[0])
		add("author", w[1])
		add("year", w[2])
		add("publisher", w[3])
		add("genre", w[4])
		add("price", fmt.Sprintf("$%d.%02d", 3+rng.IntN(60), rng.IntN(100)))
		add("isbn", fmt.Sprintf("978%010d", rng.Int64N(1e10)))
		add("pages", fmt.Sprint(80+rng.IntN(900)))
		add("format", []string{"Paperback", "Hardcover", "Kindle Edition", "Audiobook"}[rng.IntN(4)])
		add("availability", []string{"In Stock.", "Usually ships in 2 days", "Temporarily out of stock."}[rng.IntN(3)])
		ts = append(ts, graph.Triple{S: r, P: graph.NewIRI(graph.RDFType), O: graph.NewIRI(srcNS + "Record")})
	}
	return ts
}

// BenchmarkGraphVsKB aligns a 500-record graph (ten relations, 100 records of works in
// the KB) with a generated KB of more than a million facts, in memory. It reports the
// time per PARIS iteration and how many KB2 nodes were read.
func BenchmarkGraphVsKB(b *testing.B) {
	t0 := time.Now()
	kbTriples, works := synthKB(140_000, 60_000)
	kb2, err := graph.NewMemory(kbTriples)
	if err != nil {
		b.Fatal(err)
	}
	built := time.Since(t0)
	t0 = time.Now()
	if _, err := kb2.Candidates(b.Context(), "warm up", 1); err != nil { // builds the literal index
		b.Fatal(err)
	}
	indexed := time.Since(t0)
	kb1, err := graph.NewMemory(synthRecords(works, 500, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("KB2: %d facts (+%d taxonomy), %d nodes, built in %v, literal index in %v", kb2.Triples(), kb2.TaxonomyTriples(), kb2.Nodes(), built, indexed)
	opts := DefaultOptions()
	var iterTime time.Duration
	iters, reads := 0, 0
	var res *Result
	cpu0 := cpuTime()
	for b.Loop() {
		res, err = Align(b.Context(), kb1, kb2, opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range res.Iterations {
			iterTime += it.Elapsed
		}
		iters += len(res.Iterations)
		reads += res.Stats.KB2Nodes
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(iterTime.Milliseconds())/float64(iters), "ms/iteration")
	b.ReportMetric(float64(iters)/float64(b.N), "iterations/op")
	b.ReportMetric(float64(reads)/float64(b.N), "kb2-nodes-read/op")
	linked, correct := 0, 0
	for _, m := range res.Instances {
		if m.Confidence >= opts.LinkThreshold {
			linked++
			var i int
			fmt.Sscanf(strings.TrimPrefix(m.LeftTerm.Value, srcNS+"record/"), "%d", &i)
			if m.RightTerm.Value == fmt.Sprintf("%swork_%d", yagoNS, i*(len(works)/100)) {
				correct++
			}
		}
	}
	b.Logf("%d instance pairs, %d ≥ %.2f of which %d correct; %d relation subsumptions", len(res.Instances), linked, opts.LinkThreshold, correct, len(res.Relations))
	for _, m := range res.Relations {
		if m.SubKB == 1 && !m.Left.Step(0).IsInverse() {
			b.Logf("  %s ⊆ %s %.3f (n %.1f)", m.LeftName, m.RightName, m.Confidence, m.N)
		}
	}
}

// cpuTime returns the user and system CPU time of the process: on a shared machine it
// says more than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGraphVsBadger is BenchmarkGraphVsKB with the KB in the Badger store of
// package ontology (loaded in memory), the production KB2.
func BenchmarkGraphVsBadger(b *testing.B) {
	t0 := time.Now()
	kbTriples, works := synthKB(140_000, 60_000)
	nt := ntBytes(b, kbTriples)
	kb2 := badgerKB(b, "synth.nt", nt)
	st := kb2.Stats()
	b.Logf("KB2 (Badger, in memory): %d facts, loaded in %v", st.Facts, time.Since(t0))
	kb1, err := graph.NewMemory(synthRecords(works, 500, 100))
	if err != nil {
		b.Fatal(err)
	}
	opts := DefaultOptions()
	var iterTime time.Duration
	iters, reads := 0, 0
	var res *Result
	cpu0 := cpuTime()
	for b.Loop() {
		res, err = Align(b.Context(), kb1, kb2, opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range res.Iterations {
			iterTime += it.Elapsed
		}
		iters += len(res.Iterations)
		reads += res.Stats.KB2Nodes
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(iterTime.Milliseconds())/float64(iters), "ms/iteration")
	b.ReportMetric(float64(iters)/float64(b.N), "iterations/op")
	b.ReportMetric(float64(reads)/float64(b.N), "kb2-nodes-read/op")
	linked, correct := 0, 0
	for _, m := range res.Instances {
		if m.Confidence >= opts.LinkThreshold {
			linked++
			var i int
			fmt.Sscanf(strings.TrimPrefix(m.LeftTerm.Value, srcNS+"record/"), "%d", &i)
			if m.RightTerm.Value == fmt.Sprintf("%swork_%d", yagoNS, i*(len(works)/100)) {
				correct++
			}
		}
	}
	b.Logf("%d instance pairs, %d ≥ %.2f of which %d correct; %d relation subsumptions", len(res.Instances), linked, opts.LinkThreshold, correct, len(res.Relations))
}
