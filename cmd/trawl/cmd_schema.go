package main

import "github.com/spf13/cobra"

func newSchemaCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "schema RUN_DIR",
		Short:   "Align record attributes into an output schema mapped to the form's inputs",
		Example: example("trawl schema runs/calibre"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("schema", 6)
		},
	}
}
