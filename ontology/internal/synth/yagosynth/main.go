// Command yagosynth writes a generated YAGO-shaped dump (package synth) for the load
// benchmarks of docs/benchmarks.md: at least -n triples, as N-Triples or in the YAGO 4.5
// export format (-format turtle), deterministic for a seed.
//
//	go run ./ontology/internal/synth/yagosynth -n 50000000 -o /tmp/trawl-bench/yago-50000000.nt
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trawl-dev/trawl/ontology/internal/synth"
)

func main() {
	n := flag.Int("n", 5_000_000, "number of triples (at least; the last entity is finished)")
	out := flag.String("o", "", "output file (written to OUT.part, then renamed)")
	format := flag.String("format", "ntriples", "ntriples or turtle (YAGO 4.5 export format)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if err := run(*n, *out, *format, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "yagosynth:", err)
		os.Exit(1)
	}
}

func run(n int, out, format string, seed uint64) error {
	if out == "" {
		return fmt.Errorf("-o FILE is required")
	}
	f := synth.NTriples
	switch format {
	case "ntriples":
	case "turtle":
		f = synth.YAGOTurtle
	default:
		return fmt.Errorf("-format %q: want ntriples or turtle", format)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	w, err := os.Create(out + ".part")
	if err != nil {
		return err
	}
	wrote, err := synth.Write(w, n, f, seed)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d triples\n", out, wrote)
	return os.Rename(out+".part", out)
}
