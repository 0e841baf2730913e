package ontology

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/ontology/internal/synth"
)

// parseBenchFile returns the generated dump of BenchmarkLoad (the same cache path).
func parseBenchFile(b *testing.B, f synth.Format) (string, int) {
	n := 5_000_000
	if v := os.Getenv("TRAWL_BENCH_TRIPLES"); v != "" {
		fmt.Sscan(v, &n)
	}
	ext := ".nt"
	if f == synth.YAGOTurtle {
		ext = ".tsv"
	}
	path := filepath.Join(os.TempDir(), "trawl-bench", fmt.Sprintf("yago-%d%s", n, ext))
	if _, err := os.Stat(path); err != nil {
		os.MkdirAll(filepath.Dir(path), 0o755)
		out, err := os.Create(path + ".part")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := synth.Write(out, n, f, 1); err != nil {
			b.Fatal(err)
		}
		out.Close()
		os.Rename(path+".part", path)
	}
	return path, n
}

// BenchmarkParse measures parsing alone, single-threaded, on the dumps of
// BenchmarkLoad: the graph package's N-Triples reader and the Turtle parser, each
// followed by the node identifier hash of the three terms (the first step of a load).
func BenchmarkParse(b *testing.B) {
	for _, tc := range []struct {
		name string
		f    synth.Format
	}{{"ntriples", synth.NTriples}, {"yago45-turtle", synth.YAGOTurtle}} {
		b.Run(tc.name, func(b *testing.B) {
			path, _ := parseBenchFile(b, tc.f)
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				var buf []byte
				var sum graph.ID
				n := 0
				hash := func(t graph.Triple) {
					var id graph.ID
					for _, x := range [...]graph.Term{t.S, t.P, t.O} {
						id, buf = termID(x, 0, buf)
						sum ^= id
					}
					n++
				}
				start := time.Now()
				if tc.f == synth.NTriples {
					r := graph.NewReader(f, path)
					for {
						t, err := r.Read()
						if errors.Is(err, io.EOF) {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						hash(t)
					}
				} else {
					emit := func(ts []graph.Triple) error {
						for _, t := range ts {
							hash(t)
						}
						return nil
					}
					bad := func(e *graph.ParseError) error { return e }
					if err := graph.ReadTurtle(f, graph.TurtleOptions{Name: path}, emit, bad); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "triples/s")
				f.Close()
			}
		})
	}
}
