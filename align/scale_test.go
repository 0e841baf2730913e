//go:build unix

package align

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/testutil"
)

// The scaling benchmark of issue 19: OAEI Persons1 replicated k times on both sides, and
// the generated YAGO-shaped KB at several sizes against a record graph that grows with
// it. docs/benchmarks.md gives the commands; each size runs best in a process of its
// own, so that the process's peak RSS (maxrss-MiB) belongs to that size:
//
//	for s in x1 x10 x50 x200; do
//	  go test ./align -run '^$' -bench "ScalePersons1/$s\$" -benchtime 1x -count 3 -timeout 60m
//	done
//
// The replicas are generated here and never written to disk.

// oaeiNS is the namespace of the Persons1 instances (classes and relations live in the
// ontology_person{1,2}.owl namespaces and are not renamed).
const oaeiNS = "http://www.okkam.org/oaie/"

// replicaKind says how a literal of Persons1 is changed in a copy.
type replicaKind int

const (
	keepValue replicaKind = iota // shared by every copy: gets less selective as k grows
	nameValue                    // letters permuted per copy: a different, name-like value
	idValue                      // identifier: the copy number appended, unique per copy
)

// persons1Kinds classifies the literal relations of Persons1 by local name. Names and
// streets are perturbed, identifiers made unique, and the values that repeat in any
// large population (age, birth date, postcode, house number, suburb and state names)
// are kept, so that their functionality falls as the data grows, as in a real KB.
var persons1Kinds = map[string]replicaKind{
	"given_name": nameValue, "surname": nameValue, "street": nameValue,
	"soc_sec_id": idValue, "phone_numer": idValue,
}

// replicaCipher is a per-copy permutation of the consonants among themselves and the
// vowels among themselves. It is position-independent, so two values of one copy keep
// their 2-gram Dice coefficient (a typo in person12 stays the same typo), while copies
// of one value share almost no 2-gram.
type replicaCipher [26]byte

func newReplicaCipher(copyN int) replicaCipher {
	const vowels, consonants = "aeiouy", "bcdfghjklmnpqrstvwxz"
	rng := rand.New(rand.NewPCG(uint64(copyN), 0x9e3779b97f4a7c15))
	var c replicaCipher
	for _, set := range []string{vowels, consonants} {
		perm := rng.Perm(len(set))
		for i := range set {
			c[set[i]-'a'] = set[perm[i]]
		}
	}
	return c
}

func (c *replicaCipher) apply(s string) string {
	b := []byte(s)
	for i, x := range b {
		switch {
		case x >= 'a' && x <= 'z':
			b[i] = c[x-'a']
		case x >= 'A' && x <= 'Z':
			b[i] = c[x-'A'] - 'a' + 'A'
		}
	}
	return string(b)
}

// replicate returns k copies of triples: copy 0 unchanged, copy c ≥ 1 with every
// instance IRI suffixed "-c<c>" and its literals changed as persons1Kinds says.
func replicate(triples []graph.Triple, k int) []graph.Triple {
	out := make([]graph.Triple, 0, len(triples)*k)
	out = append(out, triples...)
	for c := 1; c < k; c++ {
		ci := newReplicaCipher(c)
		suffix := fmt.Sprintf("-c%d", c)
		rename := func(t graph.Term) graph.Term {
			if t.Kind == graph.KindIRI && strings.HasPrefix(t.Value, oaeiNS) {
				t.Value += suffix
			}
			return t
		}
		for _, t := range triples {
			t.S, t.O = rename(t.S), rename(t.O)
			if t.O.Kind == graph.KindLiteral {
				p := t.P.Value[strings.LastIndexAny(t.P.Value, "#/")+1:]
				switch persons1Kinds[p] {
				case nameValue:
					t.O.Value = ci.apply(t.O.Value)
				case idValue:
					if t.O.Value != "" {
						t.O.Value = fmt.Sprintf("%s %03d", t.O.Value, c)
					}
				}
			}
			out = append(out, t)
		}
	}
	return out
}

var persons1Triples = sync.OnceValues(func() ([2][]graph.Triple, error) {
	var out [2][]graph.Triple
	dir := testutil.SharedDir()
	for i, f := range []string{"person11.nt", "person12.nt"} {
		fh, err := os.Open(filepath.Join(dir, "data", "oaei2010", "Persons1", f))
		if err != nil {
			return out, err
		}
		rd := graph.NewReader(fh, f)
		for {
			t, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				fh.Close()
				return out, err
			}
			out[i] = append(out[i], t)
		}
		fh.Close()
	}
	return out, nil
})

// persons1Replica builds the two KBs of Persons1 replicated k times.
func persons1Replica(t testing.TB, k int) (*graph.Memory, *graph.Memory) {
	t.Helper()
	testutil.SharedData(t, "oaei2010") // skips with a message when the shared data is absent
	ts, err := persons1Triples()
	if err != nil {
		t.Fatal(err)
	}
	kb1, err := graph.NewMemory(replicate(ts[0], k))
	if err != nil {
		t.Fatal(err)
	}
	kb2, err := graph.NewMemory(replicate(ts[1], k))
	if err != nil {
		t.Fatal(err)
	}
	return kb1, kb2
}

// replicaScore returns the instance precision and recall of res against the gold of
// Persons1 replicated k times: person1-PersonN0[-cC] ≡ person2-PersonN1[-cC], 500·k pairs.
func replicaScore(res *Result, k int) (p, r float64) {
	correct, wrong := 0, 0
	for _, m := range res.Instances {
		if m.Confidence < res.Options.Theta {
			continue
		}
		l := strings.TrimPrefix(m.LeftTerm.Value, oaeiNS)
		if !strings.HasPrefix(l, "person1-Person") {
			continue
		}
		num, suffix, _ := strings.Cut(strings.TrimPrefix(l, "person1-Person"), "-")
		if !strings.HasSuffix(num, "0") {
			continue // not in the gold
		}
		want := oaeiNS + "person2-Person" + strings.TrimSuffix(num, "0") + "1"
		if suffix != "" {
			want += "-" + suffix
		}
		if m.RightTerm.Value == want {
			correct++
		} else {
			wrong++
		}
	}
	if correct+wrong > 0 {
		p = float64(correct) / float64(correct+wrong)
	}
	return p, float64(correct) / float64(500*k)
}

// TestPersons1Replica checks the replica generator and the aligner on three copies:
// copies are renamed and perturbed consistently on both sides, so every copy aligns with
// its counterpart and with no other.
func TestPersons1Replica(t *testing.T) {
	kb1, kb2 := persons1Replica(t, 3)
	if got := kb1.Triples() + kb1.TaxonomyTriples(); got != 3*9000 {
		t.Errorf("KB1 has %d triples, want %d", got, 3*9000)
	}
	ci := newReplicaCipher(2)
	if got := ci.apply("Bakes 12"); got == "Bakes 12" || len(got) != 8 || got[6:] != "12" || got[0] < 'A' || got[0] > 'Z' {
		t.Errorf("cipher of %q = %q", "Bakes 12", got)
	}
	for _, iri := range []string{oaeiNS + "person1-Person730-c2", oaeiNS + "person1-Address730-c1"} {
		if _, ok, _ := kb1.Lookup(t.Context(), graph.NewIRI(iri)); !ok {
			t.Errorf("KB1 has no %s", iri)
		}
	}
	if _, ok, _ := kb1.Lookup(t.Context(), graph.NewLiteral("9995061 002")); !ok {
		t.Error(`KB1 has no soc_sec_id "9995061 002"`)
	}
	res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if p, r := replicaScore(res, 3); p != 1 || r != 1 {
		t.Errorf("Persons1 ×3: P %.4f R %.4f, want 1 and 1", p, r)
	}
}

// TestWorkCounts checks the units of work the scaling benchmark reports: every kind is
// counted, and the counts do not depend on the number of goroutines (units redone after
// a read of KB2 count once).
func TestWorkCounts(t *testing.T) {
	kb1, kb2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	var first workCounts
	for i, workers := range []int{1, 3} {
		opts := DefaultOptions()
		opts.Workers = workers
		res, err := Align(t.Context(), kb1, kb2, opts)
		if err != nil {
			t.Fatal(err)
		}
		w := res.work
		if w.litCands == 0 || w.evidence == 0 || w.supports == 0 || w.supports > w.evidence || w.relFacts == 0 || w.pathPairs == 0 {
			t.Errorf("%d workers: counts %+v, want every one positive and supports ≤ evidence", workers, w)
		}
		if i == 0 {
			first = w
		} else if w != first {
			t.Errorf("counts with %d workers %+v differ from those with 1 %+v", workers, w, first)
		}
	}
}

// memPeak samples the memory the Go runtime holds from the OS (heap, stacks, metadata;
// released pages excluded) every 10 ms and keeps the largest value.
type memPeak struct {
	stop chan struct{}
	done chan uint64
}

func startMemPeak() *memPeak {
	m := &memPeak{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		var peak uint64
		read := func() {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64()-s[1].Value.Uint64())
		}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			read()
			select {
			case <-m.stop:
				read()
				m.done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *memPeak) end() uint64 {
	close(m.stop)
	return <-m.done
}

// maxRSS returns the peak resident set size of the process so far.
func maxRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return uint64(ru.Maxrss) * 1024 // kilobytes on Linux
}

// scaleRun aligns kb1 with kb2 b.N times and reports CPU time, CPU time per fact (the
// distinct non-taxonomy facts of both KBs), the peak runtime memory during the
// alignment, the process's peak RSS, the iterations and the units of work per fact
// (workCounts).
func scaleRun(b *testing.B, kb1, kb2 KB, facts int, opts Options) *Result {
	runtime.GC()
	b.ReportAllocs()
	var res *Result
	var peak uint64
	iters := 0
	cpu := time.Duration(0)
	for b.Loop() {
		mp := startMemPeak()
		c0 := cpuTime()
		var err error
		res, err = Align(b.Context(), kb1, kb2, opts)
		if err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		peak = max(peak, mp.end())
		iters += len(res.Iterations)
	}
	n := float64(b.N)
	b.ReportMetric(float64(facts), "facts")
	b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/n/float64(facts), "cpu-ns/fact")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(maxRSS())/(1<<20), "maxrss-MiB")
	b.ReportMetric(float64(iters)/n, "iterations/op")
	// Work units per fact (of the last run; every run does the same work): if they stay
	// flat while cpu-ns/fact grows, the growth is the machine's cost per unit, not the
	// algorithm's.
	w, f := res.work, float64(facts)
	b.ReportMetric(float64(w.litCands)/f, "lit-cands/fact")
	b.ReportMetric(float64(w.evidence)/f, "evidence/fact")
	b.ReportMetric(float64(w.supports)/f, "supports/fact")
	b.ReportMetric(float64(w.relFacts)/f, "rel-facts/fact")
	b.ReportMetric(float64(w.pathPairs)/f, "path-pairs/fact")
	return res
}

// BenchmarkScalePersons1 aligns Persons1 replicated ×1, ×10, ×50 and ×200 with the
// default options (joins of length 2, approximate literals, early stop) and reports the
// instance precision and recall against the replicated gold.
func BenchmarkScalePersons1(b *testing.B) {
	for _, k := range []int{1, 10, 50, 200} {
		b.Run(fmt.Sprintf("x%d", k), func(b *testing.B) {
			t0, c0 := time.Now(), cpuTime()
			kb1, kb2 := persons1Replica(b, k)
			if _, err := kb2.Candidates(b.Context(), "warm up", 1); err != nil { // builds the literal index
				b.Fatal(err)
			}
			// The CPU of generating the replicas and building both graph.Memory KBs with
			// KB2's literal index (sorts: n·log n), per fact: a reference measured in the
			// same process, under the same machine load, for the alignment's cpu-ns/fact
			// (reported after the loop, whose start deletes reported metrics).
			build := cpuTime() - c0
			b.Logf("×%d: KB1 %d facts (+%d rdf:type), KB2 %d facts (+%d), built and indexed in %v",
				k, kb1.Triples(), kb1.TaxonomyTriples(), kb2.Triples(), kb2.TaxonomyTriples(), time.Since(t0).Round(time.Millisecond))
			res := scaleRun(b, kb1, kb2, kb1.Triples()+kb2.Triples(), DefaultOptions())
			b.ReportMetric(float64(build.Nanoseconds())/float64(kb1.Triples()+kb2.Triples()), "build-cpu-ns/fact")
			p, r := replicaScore(res, k)
			b.ReportMetric(p, "P")
			b.ReportMetric(r, "R")
		})
	}
}

// BenchmarkScaleGraphVsKB aligns a record graph with the generated YAGO-shaped KB of
// BenchmarkGraphVsKB at three sizes: ×1 is 14k works and 6k people (about 116k facts)
// against 200 records, ×10 and ×30 multiply both. A tenth of the records describe works
// of the KB; P and R count their links at LinkThreshold. Of KB2 the aligner reads only
// the neighbourhood of the records' candidates (kb2-nodes-read).
func BenchmarkScaleGraphVsKB(b *testing.B) {
	for _, k := range []int{1, 10, 30} {
		b.Run(fmt.Sprintf("x%d", k), func(b *testing.B) {
			t0 := time.Now()
			kbTriples, works := synthKB(14_000*k, 6_000*k)
			kb2, err := graph.NewMemory(kbTriples)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := kb2.Candidates(b.Context(), "warm up", 1); err != nil {
				b.Fatal(err)
			}
			n := 200 * k
			kb1, err := graph.NewMemory(synthRecords(works, n, n/10))
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("×%d: KB1 %d records, %d facts; KB2 %d facts (+%d taxonomy), built and indexed in %v",
				k, n, kb1.Triples(), kb2.Triples(), kb2.TaxonomyTriples(), time.Since(t0).Round(time.Millisecond))
			res := scaleRun(b, kb1, kb2, kb1.Triples()+kb2.Triples(), DefaultOptions())
			b.ReportMetric(float64(res.Stats.KB2Nodes), "kb2-nodes-read")
			linked, correct := 0, 0
			for _, m := range res.Instances {
				if m.Confidence < res.Options.LinkThreshold {
					continue
				}
				linked++
				var i int
				fmt.Sscanf(strings.TrimPrefix(m.LeftTerm.Value, srcNS+"record/"), "%d", &i)
				if i < n/10 && m.RightTerm.Value == fmt.Sprintf("%swork_%d", yagoNS, i*(len(works)/(n/10))) {
					correct++
				}
			}
			b.ReportMetric(float64(correct)/float64(n/10), "R")
			if linked > 0 {
				b.ReportMetric(float64(correct)/float64(linked), "P")
			}
		})
	}
}

// TestWeakBlocksUnexpanded checks that keeping weak evidence blocks unexpanded (they
// score only the candidates that discriminative evidence proposes; instances.go,
// addBlock) changes nothing in the result, bit for bit, against expanding every block,
// on data where weak blocks are many (values kept in every copy of a replica) and on
// the OAEI pairs, and that it does less work. Subject joins are off: in the bootstrap
// they read the entities of small weak blocks, which expanding them reads in another
// order, and the order in which KB2's nodes are fetched decides the last bits of sums.
// Joint proposals (subject.go), which need unexpanded blocks, propose nothing on these
// pairs.
func TestWeakBlocksUnexpanded(t *testing.T) {
	r1, r2 := persons1Replica(t, 2)
	p1, p2 := loadPair(t, "Persons1/person11.nt", "Persons1/person12.nt")
	s1, s2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	opts := DefaultOptions()
	opts.SubjectJoins = false
	for _, c := range []struct {
		name     string
		kb1, kb2 KB
		opts     Options
	}{
		{"Persons1 ×2", r1, r2, opts},
		{"Persons1", p1, p2, opts},
		{"Restaurants", s1, s2, opts},
		{"Restaurants reversed", s2, s1, opts},
	} {
		got, err := Align(t.Context(), c.kb1, c.kb2, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		all := c.opts
		all.expandWeak = true
		want, err := Align(t.Context(), c.kb1, c.kb2, all)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Instances, want.Instances) {
			t.Errorf("%s: %d instance matches, %d with every block expanded; first difference %s", c.name, len(got.Instances), len(want.Instances), firstInstanceDiff(got.Instances, want.Instances))
		}
		if !reflect.DeepEqual(got.Relations, want.Relations) || !reflect.DeepEqual(got.Classes, want.Classes) {
			t.Errorf("%s: relation or class matches differ from those with every block expanded", c.name)
		}
		if len(got.Iterations) != len(want.Iterations) {
			t.Errorf("%s: %d iterations, %d with every block expanded", c.name, len(got.Iterations), len(want.Iterations))
		}
		if got.work.evidence > want.work.evidence {
			t.Errorf("%s: %d evidence factors, more than the %d with every block expanded", c.name, got.work.evidence, want.work.evidence)
		}
		t.Logf("%s: evidence factors %d, %d with every block expanded", c.name, got.work.evidence, want.work.evidence)
	}
}

func firstInstanceDiff(a, b []InstanceMatch) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return fmt.Sprintf("%+v against %+v", a[i], b[i])
		}
	}
	return "in the length"
}
