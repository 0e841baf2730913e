package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
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
	opts := schema.DefaultOptions()
	opts.SplitComposite = !o.NoSplit
	opts.MaxSubmissions = o.MaxSubmissions
	opts.Logger = g.logger()
	if err := opts.Validate(); err != nil {
		return usageError("trawl schema: %v", err)
	}
	var sub schema.Submitter
	if o.Resubmit {
		po := probe.DefaultOptions()
		po.AllowPOST = o.AllowPOST
		po.Screenshots = false
		po.Logger = opts.Logger
		b, err := probe.Start(cmd.Context(), po)
		if err != nil {
			return err
		}
		defer b.Close()
		p, err := probe.NewProber(b, po)
		if err != nil {
			return err
		}
		defer p.Close()
		rs, err := newResubmitter(dir, p, opts.Logger)
		if err != nil {
			return err
		}
		sub = rs
	}
	s, err := runSchemaStage(cmd.Context(), dir, sub, opts)
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

// pageSubmitter is what re-submission needs from the prober (*probe.Prober).
type pageSubmitter interface {
	Submit(ctx context.Context, f probe.Form, values map[string]string) ([]probe.Page, error)
}

// resubmitter is the schema.Submitter of a run directory: the prober submits the run's
// form with the values, and the wrapper FOREST learnt on the run (wrapper.json) is
// applied to the first result page, so that its records have the leaf paths of
// records.jsonl whatever their number (one record is enough) and each re-submission
// costs one page, not the whole run. Without wrapper.json (a run directory made by
// hand, or one written before wrappers could be applied), the records are isolated
// with FOREST over the run's pages and the new one.
type resubmitter struct {
	sub   pageSubmitter
	form  probe.Form
	apply *records.Applier // nil: isolate with Extract over pages
	pages []records.Page
	opts  records.Options
	log   *slog.Logger
	n     int
}

func newResubmitter(dir string, sub pageSubmitter, log *slog.Logger) (*resubmitter, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	form, err := probe.ReadForm(dir)
	if err != nil {
		return nil, fmt.Errorf("trawl schema: re-submission needs the form: %w", err)
	}
	ro := records.DefaultOptions()
	ro.Logger = log
	r := &resubmitter{sub: sub, form: form, opts: ro, log: log}
	w, err := records.ReadWrapper(dir)
	if err == nil {
		ao := records.DefaultApplyOptions()
		ao.Logger = log
		r.apply, err = records.NewApplier(w, ao)
	}
	switch {
	case err == nil:
		return r, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, records.ErrStaleWrapper):
		log.Warn("re-submissions are isolated with FOREST over the whole run", "reason", err)
	default:
		return nil, fmt.Errorf("trawl schema: re-submission needs the run's wrapper: %w", err)
	}
	pages, skipped, err := runDirPages(dir)
	if err != nil {
		return nil, err
	}
	for _, sk := range skipped {
		log.Warn("page skipped", "reason", sk)
	}
	r.pages = pages
	return r, nil
}

// Submit implements schema.Submitter.
func (r *resubmitter) Submit(ctx context.Context, values map[string]string) ([]records.Record, error) {
	pages, err := r.sub.Submit(ctx, r.form, values)
	if err != nil {
		return nil, err
	}
	if len(pages) == 0 || pages[0].HTML == "" {
		return nil, nil
	}
	r.n++
	var terms []string
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			terms = append(terms, v)
		}
	}
	slices.Sort(terms)
	pg := records.Page{Name: fmt.Sprintf("resubmission-%d", r.n), URL: pages[0].URL, HTML: []byte(pages[0].HTML), Terms: terms, Kind: probe.KindMapping}
	if r.apply != nil {
		recs, pc, err := r.apply.Apply(ctx, pg)
		if err != nil {
			return nil, fmt.Errorf("isolate the records of the re-submission: %w", err)
		}
		r.log.Debug("re-submission", "page", pg.Name, "url", pg.URL, "class", pc.Class, "records", len(recs), "reason", pc.Reason)
		return recs, nil
	}
	_, recs, err := records.Extract(ctx, append(slices.Clone(r.pages), pg), r.opts)
	if err != nil {
		return nil, fmt.Errorf("isolate the records of the re-submission: %w", err)
	}
	var out []records.Record
	for _, rec := range recs {
		if rec.Page == pg.Name {
			out = append(out, rec)
		}
	}
	return out, nil
}
