package main

import "github.com/spf13/cobra"

func newFormsCommand(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "forms PAGE.html|URL",
		Short:   "List and classify the forms of a page as JSON",
		Example: example("trawl forms saved-page.html"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return notBuilt("forms", 4)
		},
	}
}
