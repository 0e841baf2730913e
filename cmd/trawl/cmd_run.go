package main

import "github.com/spf13/cobra"

func newRunCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "run URL [--kb DIR] --out DIR",
		Short:   "Run the whole pipeline on one search form",
		Example: example("trawl run http://127.0.0.1:18082/mobile --out runs"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("run", 7)
		},
	}
}
