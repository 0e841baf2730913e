package main

import "github.com/spf13/cobra"

func newExtractCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "extract RUN_DIR | --pages FILE... [--query TERMS]",
		Short:   "Isolate the result records of probed pages with FOREST",
		Example: example("trawl extract runs/calibre"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("extract", 5)
		},
	}
}
