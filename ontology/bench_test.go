//go:build unix

package ontology_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology"
	"github.com/trawl-dev/trawl/ontology/internal/synth"
)

// benchTriples is the size of the generated YAGO-shaped dump of the load benchmark;
// TRAWL_BENCH_TRIPLES overrides it.
func benchTriples() int {
	if v, err := strconv.Atoi(os.Getenv("TRAWL_BENCH_TRIPLES")); err == nil && v > 0 {
		return v
	}
	return 5_000_000
}

// benchFile returns a generated dump, cached in the system temp folder across runs.
func benchFile(b *testing.B, n int, f synth.Format) string {
	b.Helper()
	ext := ".nt"
	if f == synth.YAGOTurtle {
		ext = ".tsv"
	}
	dir := filepath.Join(os.TempDir(), "trawl-bench")
	path := filepath.Join(dir, fmt.Sprintf("yago-%d%s", n, ext))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	tmp := path + ".part"
	out, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := synth.Write(out, n, f, 1); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func maxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}

// BenchmarkLoad loads a generated YAGO-shaped dump into a Badger KB on disk, all
// indexes included (TRAWL_BENCH_SORT_MEMORY sets the memory budget in MiB), and reports triples/s of wall time and of CPU time, and the peak
// RSS of the process.
func BenchmarkLoad(b *testing.B) {
	n := benchTriples()
	for _, f := range []struct {
		name string
		f    synth.Format
	}{{"ntriples", synth.NTriples}, {"yago45-turtle", synth.YAGOTurtle}} {
		b.Run(f.name, func(b *testing.B) {
			path := benchFile(b, n, f.f)
			runtime.GC()
			for b.Loop() {
				dir := filepath.Join(b.TempDir(), "kb")
				stop := make(chan struct{})
				anon := anonRSS(stop, 50*time.Millisecond)
				cpu0 := cpuTime()
				start := time.Now()
				opts := ontology.DefaultLoadOptions()
				if mb, err := strconv.ParseInt(os.Getenv("TRAWL_BENCH_SORT_MEMORY"), 10, 64); err == nil {
					opts.SortMemoryMB = mb
				}
				rep, err := ontology.Load(b.Context(), dir, []ontology.Source{ontology.FileSource(path)}, opts)
				if err != nil {
					b.Fatal(err)
				}
				wall := time.Since(start)
				cpu := cpuTime() - cpu0
				close(stop)
				b.ReportMetric(float64(<-anon)/(1<<20), "peak-anon-RSS-MiB")
				b.ReportMetric(float64(rep.Parsed)/wall.Seconds(), "triples/s")
				b.ReportMetric(float64(rep.Parsed)/cpu.Seconds(), "triples/cpu-s")
				b.ReportMetric(rep.ParseTime.Seconds(), "parse-s")
				b.ReportMetric(rep.IndexTime.Seconds(), "index-s")
				b.ReportMetric(float64(maxRSS())/(1<<20), "peak-RSS-MiB")
				os.RemoveAll(dir)
			}
		})
	}
}

// anonRSS samples the process's anonymous resident memory (heap and stacks, without
// the memory-mapped table files) every period until stop is closed, and returns the
// peak in bytes.
func anonRSS(stop <-chan struct{}, every time.Duration) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		var peak, profiled int64
		var last time.Time
		prof := os.Getenv("TRAWL_BENCH_HEAPPROFILE")
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			if data, err := os.ReadFile("/proc/self/status"); err == nil {
				for _, l := range strings.Split(string(data), "\n") {
					if rest, ok := strings.CutPrefix(l, "RssAnon:"); ok {
						if kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64); err == nil {
							peak = max(peak, kb<<10)
						}
					}
				}
			}
			if prof != "" && peak > profiled+profiled/20 && time.Since(last) > 2*time.Second {
				profiled, last = peak, time.Now()
				writePeakProfile(prof, peak)
			}
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// writePeakProfile writes the heap profile to path (TRAWL_BENCH_HEAPPROFILE) when the
// anonymous memory reaches a new peak, and logs how the peak divides between the Go
// heap and the rest (the sort buffers outside the heap, stacks, Badger's allocations),
// so that what grows with the size of a load can be found.
func writePeakProfile(path string, anon int64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(os.Stderr, "peak anon %d MiB: heap in use %d MiB, heap sys %d MiB, heap released %d MiB, stacks %d MiB, runtime sys %d MiB\n",
		anon>>20, ms.HeapInuse>>20, ms.HeapSys>>20, ms.HeapReleased>>20, ms.StackSys>>20, ms.Sys>>20)
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}

// benchKB returns a KB loaded from the generated dump, cached across runs.
func benchKB(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "trawl-bench", fmt.Sprintf("kb-%d", n))
	if st, err := ontology.Open(dir, ontology.DefaultOptions()); err == nil {
		st.Close()
		return dir
	}
	opts := ontology.DefaultLoadOptions()
	opts.Replace = true
	if _, err := ontology.Load(b.Context(), dir, []ontology.Source{ontology.FileSource(benchFile(b, n, synth.NTriples))}, opts); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkCandidates measures Candidates on the KB of BenchmarkLoad with three kinds
// of queries taken from the KB: labels as they are (exact), labels with one letter
// changed (approximate) and years (dates). It reports the 50th and 99th percentile.
func BenchmarkCandidates(b *testing.B) {
	st := openBenchKB(b)
	ctx := b.Context()
	labels, err := st.Sample(ctx, ontology.RDFSLabel, 1000)
	if err != nil || len(labels) == 0 {
		b.Fatalf("sample: %v", err)
	}
	var exact, approx []string
	for i, id := range labels {
		t, err := st.Term(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		exact = append(exact, t.Value)
		r := []rune(t.Value)
		j := (i*7 + 3) % len(r)
		r[j] = 'x'
		approx = append(approx, string(r))
	}
	var years []string
	for y := 1800; y < 2000; y += 3 {
		years = append(years, strconv.Itoa(y))
	}
	for _, q := range []struct {
		name    string
		queries []string
	}{{"exact", exact}, {"approx", approx}, {"year", years}} {
		b.Run(q.name, func(b *testing.B) {
			var lat []time.Duration
			found := 0
			i := 0
			for b.Loop() {
				text := q.queries[i%len(q.queries)]
				i++
				start := time.Now()
				cs, err := st.Candidates(ctx, text, 10)
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				if len(cs) > 0 {
					found++
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(found)/float64(len(lat)), "found")
		})
	}
}

// BenchmarkNodeLookup reads the node records of entities of the KB of BenchmarkLoad
// (Term and Edges, as the aligner does), 2,000 entities spread over the KB in turn, and
// reports the 50th and 99th percentile of one entity's term and edges.
func BenchmarkNodeLookup(b *testing.B) {
	st := openBenchKB(b)
	ctx := b.Context()
	var ids []graph.ID
	i := 0
	for id, err := range st.Entities(ctx) {
		if err != nil {
			b.Fatal(err)
		}
		if i++; i%37 == 0 {
			ids = append(ids, id)
		}
		if len(ids) == 2000 {
			break
		}
	}
	if len(ids) == 0 {
		b.Fatal("no entities")
	}
	var lat []time.Duration
	edges := 0
	i = 0
	for b.Loop() {
		id := ids[i%len(ids)]
		i++
		start := time.Now()
		if _, err := st.Term(ctx, id); err != nil {
			b.Fatal(err)
		}
		for _, err := range st.Edges(ctx, id) {
			if err != nil {
				b.Fatal(err)
			}
			edges++
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(float64(edges)/float64(len(lat)), "edges/op")
}

// openBenchKB opens the KB of BenchmarkLoad (built once per size), closed when b ends.
func openBenchKB(b *testing.B) *ontology.Store {
	b.Helper()
	st, err := ontology.Open(benchKB(b, benchTriples()), ontology.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}
