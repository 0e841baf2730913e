package main

import "github.com/spf13/cobra"

func newReportCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "report RUN_DIR",
		Short:   "Write report.html for a run",
		Example: example("trawl report runs/calibre"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("report", 7)
		},
	}
}
