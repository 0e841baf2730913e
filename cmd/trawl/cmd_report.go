package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
)

type reportCmdOptions struct {
	Out      string
	KB       string
	MaxEmbed int64
	JSON     bool
}

const reportLong = `Write report.html for a run directory: one self-contained HTML file (inline CSS,
images as data: URIs, no script, no request to anything) that goes through the run top
to bottom:

  1. the source: form URL, when, the options in effect, and a summary line;
  2. the form: its screenshot and its input schema;
  3. the probes: assignment, status, pages and records found per probe;
  4. a result page with the records FOREST found outlined (the saved DOM, shown inert
     in a sandboxed frame), and a few records as extracted;
  5. the output schema: features, labels, types, paths and sample values;
  6. the input–output mapping with the trials behind it;
  7. the alignment: record class, features to KB relations and joins, instance links
     with their confidence, progress per iteration;
  8. what the enrichment would add.

Every section works with what the run has: a missing file is named with the command
that writes it (a run that stopped early, or a report after 'trawl extract' only). A
malformed file is reported in its section and on stderr, and the exit code is 3.

With --kb (a KB directory written by 'trawl kb load' or an N-Triples file: the KB the
run was aligned with), KB entities are named with their labels; without it, from
their IRIs.`

func newReportCommand(g *globalOptions) *cobra.Command {
	var o reportCmdOptions
	cmd := &cobra.Command{
		Use:   "report RUN_DIR [--out FILE]",
		Short: "Write report.html for a run",
		Long:  reportLong,
		Example: example(
			"trawl report runs/127-0-0-1-18082-mobile",
			"trawl report runs/books --kb /data/yago --out /tmp/books.html",
			"trawl report runs/books --out - > books.html"),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			gg := g.forCmd(cmd)
			return runReport(cmd, gg, o, args[0], cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", `report file (default RUN_DIR/report.html; "-" writes to stdout)`)
	f.StringVar(&o.KB, "kb", "", "the reference KB, to name KB entities with their labels")
	f.Int64Var(&o.MaxEmbed, "max-embed", report.DefaultMaxEmbed, "largest page or image embedded, in bytes")
	f.BoolVar(&o.JSON, "json", false, "print a JSON summary (file, size, missing files) on stdout")
	return cmd
}

func runReport(cmd *cobra.Command, g globalOptions, o reportCmdOptions, dir string, stdout io.Writer) error {
	if o.MaxEmbed <= 0 {
		return usageError("trawl report: --max-embed must be > 0, got %d", o.MaxEmbed)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usageError("trawl report: %s is not a run directory", dir)
	}
	if o.Out == "-" && o.JSON {
		return usageError("trawl report: --out - and --json both write to stdout: choose one")
	}
	ro := report.Options{Out: o.Out, MaxEmbedBytes: o.MaxEmbed, Logger: g.logger()}
	if o.KB != "" {
		kb, _, closeKB, err := pipeline.LoadKB(cmd.Context(), o.KB, "--kb", g.logger())
		if err != nil {
			return err
		}
		defer closeKB()
		ro.KB = kb
	}
	if o.Out == "-" {
		page, err := report.Build(cmd.Context(), dir, ro)
		if err != nil {
			return err
		}
		if _, err := stdout.Write(page.HTML); err != nil {
			return err
		}
		if page.Unreadable != nil {
			return fmt.Errorf("%w: %w", report.ErrIncomplete, page.Unreadable)
		}
		return nil
	}
	res, err := report.Write(cmd.Context(), dir, ro)
	if res.Path == "" {
		return err
	}
	if o.JSON {
		if e := output.ReportJSON(stdout, res); e != nil && err == nil {
			err = e
		}
	} else if !g.Quiet {
		output.ReportDone(g.stderr, res)
	}
	return err
}
