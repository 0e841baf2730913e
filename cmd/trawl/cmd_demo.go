package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
)

const demoLong = `Run the whole pipeline on the built-in demo site and the built-in demo KB.

trawl serves "Bookfinder" on 127.0.0.1 — an advanced book search (keywords, title,
author, language, sort) with a members' login form on the same page, result cards of
which part is filled in by a script, and numbered result pages — and runs 'trawl run'
against it with the embedded demo KB: probing, FOREST, the output schema and the
mapping of the form's fields, the labeled graph, the PARIS alignment, one round of
ontology-guided probing, the enrichment and the report. The login form is never
submitted (the site counts it as a violation and the demo fails if it happens).

It prints what it understood — which attribute is which KB relation, which form field
takes which kind of value — checks that every N-Triples file it wrote parses, and
prints the path of report.html. Needs Chromium (apt-get install -y chromium).`

// demoOptions are the flags of 'trawl demo'.
type demoOptions struct {
	Base string
	Out  string
	Port int
	JSON bool
	Keep bool
}

func newDemoCommand(g *globalOptions) *cobra.Command {
	var o demoOptions
	cmd := &cobra.Command{
		Use:     "demo [--out DIR]",
		Short:   "Run the whole pipeline on the built-in demo site and demo KB",
		Long:    demoLong,
		Example: example("trawl demo", "trawl demo --out /tmp/trawl-demo --json"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			gg := g.forCmd(cmd)
			return runDemo(cmd.Context(), gg, o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.Out, "out", "trawl-demo", "output directory")
	cmd.Flags().IntVar(&o.Port, "port", 18090, "port of the demo site on 127.0.0.1 (another free port is taken if it is busy)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the summary as JSON on stdout")
	cmd.Flags().StringVar(&o.Base, "base", graph.DefaultBase, "base IRI of everything minted (records, features, new relations and entities)")
	cmd.Flags().BoolVar(&o.Keep, "keep", false, "keep the results of an earlier demo in --out (default: start afresh)")
	return cmd
}

func runDemo(ctx context.Context, g globalOptions, o demoOptions, stdout io.Writer) error {
	site := testsites.Demo()
	siteURL, closeSite, err := pipeline.ServeSite(site, o.Port)
	if err != nil {
		return fmt.Errorf("trawl demo: serve the demo site: %w", err)
	}
	defer closeSite()
	stderr := g.stderr
	if !g.Quiet {
		fmt.Fprintf(stderr, "trawl demo: serving %s (%s, %d books) at %s\n", site.Description, "advanced search with a login form", len(site.Records), siteURL)
	}

	po := pipeline.DemoOptions()
	po.Graph.Base = o.Base
	po.URL = siteURL
	po.Dir = filepath.Join(o.Out, rundir.Name(siteURL, ""))
	if !o.Keep {
		if err := os.RemoveAll(po.Dir); err != nil {
			return fmt.Errorf("trawl demo: clear %s: %w", po.Dir, err)
		}
	}
	track, stop := pipelineProgress(&g)
	defer stop()
	if !g.Quiet && !o.JSON {
		po.Progress = pipeline.StagePrinter(g.stderr)
	}
	p := pipeline.New(po, g.logger())
	track(p)
	defer p.Close()
	sum, err := p.Run(ctx)
	stop()
	if err != nil {
		return fmt.Errorf("trawl demo: %w", err)
	}
	if v := site.Violations(); len(v) > 0 {
		return fmt.Errorf("trawl demo: the demo site saw forbidden requests: %s", strings.Join(v, "; "))
	}
	und := &output.Demo{Summary: sum}
	if und.Fields, err = p.FieldUses(ctx); err != nil {
		return fmt.Errorf("trawl demo: %w", err)
	}
	for _, name := range []string{rundir.GraphFile, rundir.LinksFile, rundir.EnrichmentFile} {
		n, err := pipeline.CountTriples(filepath.Join(po.Dir, name))
		if err != nil {
			return fmt.Errorf("trawl demo: %w", err)
		}
		und.Files = append(und.Files, output.DemoFile{File: filepath.Join(po.Dir, name), Triples: n})
	}
	if o.JSON {
		if err := output.JSON(stdout, und); err != nil {
			return err
		}
		return partialRun(sum)
	}
	und.Print(stdout)
	return partialRun(sum)
}
