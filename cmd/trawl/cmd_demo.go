package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

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

// demoPipelineOptions are the pipeline settings of the demo: a local site of our own,
// so no delay between requests, and budgets that keep the whole run well under a
// minute on two cores.
func demoPipelineOptions() pipeline.Options {
	o := pipeline.DefaultOptions()
	o.Probe.Delay = 0
	o.Probe.MaxProbes = 15
	o.Probe.MaxPages = 40
	o.Probe.MaxPagesPerProbe = 3
	o.Probe.Tabs = 2
	o.Schema.MaxSubmissions = 32
	o.Rounds = 1
	o.GuidedValues = 4
	return o
}

// demoUnderstanding is what the demo must show.
type demoUnderstanding struct {
	Fields  []pipeline.FieldUse `json:"fields"`
	Files   []demoFile          `json:"ntriples"`
	Summary *pipeline.Summary   `json:"summary"`
}

type demoFile struct {
	File    string `json:"file"`
	Triples int    `json:"triples"`
}

func runDemo(ctx context.Context, g globalOptions, o demoOptions, stdout io.Writer) error {
	site := testsites.Demo()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", o.Port))
	if err != nil {
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return fmt.Errorf("trawl demo: serve the demo site: %w", err)
		}
	}
	srv := &http.Server{Handler: site.Handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	siteURL := "http://" + ln.Addr().String() + site.FormPath
	stderr := g.stderr
	if !g.Quiet {
		fmt.Fprintf(stderr, "trawl demo: serving %s (%s, %d books) at %s\n", site.Description, "advanced search with a login form", len(site.Records), siteURL)
	}

	po := demoPipelineOptions()
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
	und := &demoUnderstanding{Summary: sum}
	if und.Fields, err = p.FieldUses(ctx); err != nil {
		return fmt.Errorf("trawl demo: %w", err)
	}
	for _, name := range []string{rundir.GraphFile, rundir.LinksFile, rundir.EnrichmentFile} {
		path := filepath.Join(po.Dir, name)
		n, err := pipeline.CountTriples(path)
		if err != nil {
			return fmt.Errorf("trawl demo: %w", err)
		}
		und.Files = append(und.Files, demoFile{File: path, Triples: n})
	}
	if o.JSON {
		if err := writeJSON(stdout, und); err != nil {
			return err
		}
		return partialRun(sum)
	}
	sum.WriteText(stdout)
	fmt.Fprintln(stdout, "\nWhat the form's fields take, in the KB's terms:")
	for _, f := range und.Fields {
		rel := "(no KB relation)"
		if f.Relation != "" {
			rel = fmt.Sprintf("%s  (confidence %.2f)", f.Relation, f.Conf)
		}
		fmt.Fprintf(stdout, "  field %-10s %-12q → feature %-14s → %s\n", f.Field, f.Label, f.Feature, rel)
	}
	fmt.Fprintln(stdout, "\nN-Triples written (each parsed back):")
	for _, f := range und.Files {
		fmt.Fprintf(stdout, "  %-60s %6d triples\n", f.File, f.Triples)
	}
	return partialRun(sum)
}
