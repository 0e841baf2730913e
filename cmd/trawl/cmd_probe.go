package main

import "github.com/spf13/cobra"

func newProbeCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "probe URL --out DIR",
		Short:   "Find the search form of a page and probe it in headless Chromium",
		Example: example("trawl probe http://127.0.0.1:18082/mobile --out runs/calibre"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("probe", 4)
		},
	}
}
