package main

import "github.com/spf13/cobra"

func newBatchCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "batch JOBS.txt --out DIR",
		Short:   "Run the pipeline on many forms, concurrently and resumably",
		Example: example("trawl batch jobs.txt --out runs --concurrency 2"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("batch", 7)
		},
	}
}
