package main

import (
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/schema"
)

type schemaOptions struct {
	JSON           bool
	NoSplit        bool
	Resubmit       bool
	MaxSubmissions int
	AllowPOST      bool
}

func newSchemaCommand(g *globalOptions) *cobra.Command {
	var o schemaOptions
	cmd := &cobra.Command{
		Use:   "schema RUN_DIR",
		Short: "Align record attributes into an output schema mapped to the form's inputs",
		Long: `Reads records.jsonl, form.json and probes.jsonl of a run directory, aligns the records'
leaf values into record features (an output schema: labels, value types, samples), maps
the form's fields to features (selects by their options, text fields by the logged probes
that typed a feature's value), and writes schema.json. Prints the schema as a table on
stdout (--json: the schema itself).

With --resubmit, text fields are also tested by re-submitting the form in headless
Chromium with values of each feature (thesis §3.4): a field maps to a feature when the
value comes back at that feature in every record of the result page. The records of a
re-submission are isolated with the wrapper FOREST learnt on the run (wrapper.json).`,
		Example: example("trawl schema runs/calibre", "trawl schema --json runs/calibre | jq '.features[].name'"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSchema(cmd, g, o, args[0], cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print schema.json on stdout instead of the table")
	cmd.Flags().BoolVar(&o.NoSplit, "no-split", false, "do not split composite leaves (\"Title by Author\")")
	cmd.Flags().BoolVar(&o.Resubmit, "resubmit", false, "test text fields by re-submitting the form in Chromium")
	cmd.Flags().IntVar(&o.MaxSubmissions, "max-submissions", schema.DefaultOptions().MaxSubmissions, "cap on re-submissions")
	cmd.Flags().BoolVar(&o.AllowPOST, "allow-post", false, "allow re-submitting a POST form")
	return cmd
}

func runSchema(cmd *cobra.Command, g *globalOptions, o schemaOptions, dir string, stdout io.Writer) error {
	po := pipeline.DefaultOptions()
	po.Dir = dir
	po.Schema.SplitComposite = !o.NoSplit
	po.Schema.MaxSubmissions = o.MaxSubmissions
	if err := po.Schema.Validate(); err != nil {
		return usageError("trawl schema: %v", err)
	}
	po.Resubmit = o.Resubmit
	po.Probe.AllowPOST = o.AllowPOST
	po.Probe.Screenshots = false
	gg := g.forCmd(cmd)
	track, stop := pipelineProgress(&gg)
	defer stop()
	p := pipeline.New(po, gg.logger())
	track(p)
	defer p.Close()
	s, err := p.Schema(cmd.Context())
	stop()
	if err != nil {
		return err
	}
	if o.JSON {
		return s.Encode(stdout)
	}
	return pipeline.WriteSchemaText(stdout, s, filepath.Join(dir, rundir.SchemaFile))
}
