package main

import (
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

type graphOptions struct {
	Base             string
	SourceID         string
	NoProvenance     bool
	RecordProvenance bool
	Print            bool
	JSON             bool
}

func newGraphCommand(g *globalOptions) *cobra.Command {
	var o graphOptions
	cmd := &cobra.Command{
		Use:   "graph RUN_DIR",
		Short: "Write the records of a run as a labeled RDF graph (N-Triples)",
		Long: `Reads schema.json and records.jsonl of a run directory and writes graph.nt: one entity per
record (an IRI stable across runs, derived from the source and the record's text), typed
with the source's record class, one predicate per feature, typed literals where the
feature's type is known, and a VoID/PROV description of the source (form, fields and
their mapping, probes with their times). The output is sorted canonical N-Triples, so the
same pages always give the same bytes.`,
		Example: example("trawl graph runs/calibre", "trawl graph --base https://data.example.org/trawl --print runs/calibre | head"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGraph(cmd, g, o, args[0], cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.Base, "base", graph.DefaultBase, "base of the minted IRIs")
	cmd.Flags().StringVar(&o.SourceID, "source-id", "", "source ID in the IRIs (default: from the form in schema.json)")
	cmd.Flags().BoolVar(&o.NoProvenance, "no-provenance", false, "leave out the VoID/PROV description")
	cmd.Flags().BoolVar(&o.RecordProvenance, "record-provenance", false, "link each record to the probes that found it (prov:wasGeneratedBy)")
	cmd.Flags().BoolVar(&o.Print, "print", false, "also write the N-Triples to stdout")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print a JSON summary on stdout")
	return cmd
}

func runGraph(cmd *cobra.Command, g *globalOptions, o graphOptions, dir string, stdout io.Writer) error {
	if o.Print && o.JSON {
		return usageError("--print and --json both write to stdout: choose one")
	}
	po := pipeline.DefaultOptions()
	po.Dir = dir
	po.Graph.Base, po.Graph.SourceID = o.Base, o.SourceID
	po.Graph.Provenance = !o.NoProvenance
	po.Graph.RecordProvenance = o.RecordProvenance
	p := pipeline.New(po, g.logger())
	defer p.Close()
	l, err := p.Graph(cmd.Context())
	if err != nil {
		return err
	}
	summary := output.NewGraphSummary(filepath.Join(dir, rundir.GraphFile), l)
	switch {
	case o.JSON:
		return output.JSON(stdout, summary)
	case o.Print:
		_, err := l.WriteTo(stdout)
		return err
	}
	summary.Print(cmd.ErrOrStderr())
	return nil
}
