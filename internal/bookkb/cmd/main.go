// Command bookkb writes the calibre test site's reference KB (package bookkb) into a
// folder: kb.nt (sorted N-Triples, YAGO 4.5 vocabulary) and gold.tsv (each site record
// and the KB entity of its work):
//
//	go run ./internal/bookkb/cmd -out /tmp/bookkb [-films=false] [-seed 15]
//	go run ./internal/bookkb/cmd -eval RUN_DIR     (P/R of the run's links.nt)
//
// The shared folder is found as the tests find it ($TRAWL_SHARED, or shared/ beside the
// repository). The files are not committed: they are derived data, a few MB.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/trawl-dev/trawl/internal/bookkb"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testutil"
)

func main() {
	out := flag.String("out", "", "output folder (created)")
	films := flag.Bool("films", true, "add films (false: a books-only KB)")
	seed := flag.Uint64("seed", 15, "seed of the random choices")
	inKB := flag.Float64("in-kb", 0.75, "share of the site's works the KB has")
	other := flag.Int("other-books", 4000, "made-up books the site does not have")
	eval := flag.String("eval", "", "score the owl:sameAs links of this trawl run directory against the gold instead")
	flag.Parse()
	if *out == "" && *eval == "" {
		fmt.Fprintln(os.Stderr, "bookkb: -out or -eval is required")
		os.Exit(2)
	}
	shared := testutil.SharedDir()
	if shared == "" {
		fmt.Fprintln(os.Stderr, "bookkb: the shared folder is not found; set TRAWL_SHARED")
		os.Exit(1)
	}
	o := bookkb.DefaultOptions(shared)
	o.Films, o.Seed, o.InKB, o.OtherBooks = *films, *seed, *inKB, *other
	kb, err := bookkb.Build(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *eval != "" {
		s, err := kb.EvalRun(*eval)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(s)
		for _, e := range s.Errors {
			fmt.Println("  " + e)
		}
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var nt, gold bytes.Buffer
	if err := kb.WriteNT(&nt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := kb.WriteGold(&gold); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for name, b := range map[string][]byte{"kb.nt": nt.Bytes(), "gold.tsv": gold.Bytes()} {
		if err := rundir.WriteFile(filepath.Join(*out, name), b); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d triples, %d site records\n", len(kb.Triples), len(kb.Books))
	var kinds []string
	for k := range kb.Counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Printf("  %-40s %6d\n", k, kb.Counts[k])
	}
}
