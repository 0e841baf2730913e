package main

import "github.com/spf13/cobra"

func newAlignCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "align RUN_DIR | A.nt B.nt --out DIR",
		Short:   "Align a run's graph with a KB, or two KB files, with PARIS",
		Example: example("trawl align person11.nt person12.nt --out out --gold gold.csv"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("align", 3)
		},
	}
}
