package main

import "github.com/spf13/cobra"

func newGraphCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "graph RUN_DIR",
		Short:   "Write the records of a run as a labeled RDF graph (N-Triples)",
		Example: example("trawl graph runs/calibre"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("graph", 6)
		},
	}
}
