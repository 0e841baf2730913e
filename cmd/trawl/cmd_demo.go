package main

import "github.com/spf13/cobra"

func newDemoCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "demo [--out DIR]",
		Short:   "Run the whole pipeline on the built-in demo site and demo KB",
		Example: example("trawl demo --out /tmp/trawl-demo"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("demo", 7)
		},
	}
}
