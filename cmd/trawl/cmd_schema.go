package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/schema"
)

type schemaOptions struct {
	JSON    bool
	NoSplit bool
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
stdout (--json: the schema itself).`,
		Example: example("trawl schema runs/calibre", "trawl schema --json runs/calibre | jq '.features[].name'"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSchema(cmd, g, o, args[0], cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print schema.json on stdout instead of the table")
	cmd.Flags().BoolVar(&o.NoSplit, "no-split", false, "do not split composite leaves (\"Title by Author\")")
	return cmd
}

func runSchema(cmd *cobra.Command, g *globalOptions, o schemaOptions, dir string, stdout io.Writer) error {
	opts := schema.DefaultOptions()
	opts.SplitComposite = !o.NoSplit
	opts.Logger = g.logger()
	s, err := schema.Run(cmd.Context(), dir, nil, opts)
	if err != nil {
		return err
	}
	if o.JSON {
		return s.Encode(stdout)
	}
	return printSchema(stdout, s, filepath.Join(dir, schema.SchemaFile))
}

func printSchema(w io.Writer, s *schema.Schema, path string) error {
	fmt.Fprintf(w, "%s: %d features from %d records on %d pages (source %s)\n", path, len(s.Features), s.Stats.Records, s.Stats.Pages, s.Source.ID)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FEATURE\tTYPE\tLABEL\tRECORDS\tSAMPLES")
	for _, f := range s.Features {
		label := f.Label
		if label != "" {
			label += " (" + f.LabelSource + ")"
		}
		samples, _ := json.Marshal(f.Samples[:min(3, len(f.Samples))])
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", f.Name, f.Type, label, f.Records, samples)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.Mapping) > 0 {
		fmt.Fprintln(w, "mapping:")
		for _, m := range s.Mapping {
			fmt.Fprintf(w, "  %s -> %s  (%s, score %.2f over %d)\n", m.Field, m.Feature, m.Method, m.Score, m.Evidence)
		}
	}
	var dropped []string
	for _, d := range s.Dropped {
		if d.Reason != schema.DropComposite {
			dropped = append(dropped, d.Reason)
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "dropped %d candidates: %s\n", len(dropped), strings.Join(dropped, ", "))
	}
	return nil
}
