package ontology_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

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
// indexes included, and reports triples/s of wall time and of CPU time, and the peak
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
				cpu0 := cpuTime()
				start := time.Now()
				rep, err := ontology.Load(b.Context(), dir, []ontology.Source{ontology.FileSource(path)}, ontology.DefaultLoadOptions())
				if err != nil {
					b.Fatal(err)
				}
				wall := time.Since(start)
				cpu := cpuTime() - cpu0
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
