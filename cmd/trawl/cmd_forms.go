package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/output"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/probe"
)

// pageRenderer returns the DOM of a live page after its scripts ran (its outerHTML) and
// the page's final URL after redirects. The browser side of probe provides it.
type pageRenderer func(ctx context.Context, rawURL string) (dom, finalURL string, err error)

type formsOptions struct {
	Page    string // a saved page (.html, .html.gz) or an http(s) URL
	BaseURL string // the address of a saved page, to resolve form actions
	Compact bool   // one line of JSON instead of an indented document
	// IgnoreRobots renders a live page even if robots.txt disallows it.
	IgnoreRobots bool
	// render renders live pages; nil means headless Chromium (probe.RenderPage).
	render pageRenderer
}

const formsLong = `List the forms of a page with their input schema and their class, as JSON on stdout:

  {"forms": [{"index": 0, "class": "search", "keyword_fields": ["q"], "fields": [...]}]}

index is the form's position among the page's <form> elements in document order, null for
a search box built without a <form> element. Each field has its name, type, label (and
where the label came from), options, default value, constraints, role and XPath.

PAGE is a saved page (.html, or .html.gz), whose charset is detected, or an http(s) URL,
which is rendered in headless Chromium so that the forms its scripts build are seen.`

func newFormsCommand(g *globalOptions) *cobra.Command {
	var o formsOptions
	cmd := &cobra.Command{
		Use:   "forms PAGE.html|PAGE.html.gz|URL",
		Short: "List and classify the forms of a page as JSON",
		Long:  formsLong,
		Example: example(
			"trawl forms saved-page.html",
			"trawl forms saved-page.html.gz --url https://www.example.org/search",
			"trawl forms http://127.0.0.1:18082/mobile"),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Page = args[0]
			return runForms(cmd.Context(), *g, o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.BaseURL, "url", "", "address of a saved page, to resolve relative form actions")
	cmd.Flags().BoolVar(&o.Compact, "compact", false, "write the JSON on one line")
	cmd.Flags().BoolVar(&o.IgnoreRobots, "ignore-robots", false, "render a live page even if robots.txt disallows it (only for your own sites)")
	return cmd
}

func runForms(ctx context.Context, g globalOptions, o formsOptions, stdout io.Writer) error {
	log := g.logger()
	if u, ok := pipeline.LiveURL(o.Page); ok && u.Scheme != "http" && u.Scheme != "https" {
		return usageError("trawl forms: %q: only http and https URLs are fetched; pass a saved page as a file path", o.Page)
	}
	if o.render == nil {
		ro := probe.DefaultOptions()
		ro.Logger, ro.IgnoreRobots = log, o.IgnoreRobots
		o.render = func(ctx context.Context, u string) (string, string, error) { return probe.RenderPage(ctx, u, ro) }
	}
	forms, err := pipeline.PageForms(ctx, o.Page, o.BaseURL, o.render)
	if err != nil {
		return fmt.Errorf("trawl forms: %w", err)
	}
	log.Info("forms found", "page", o.Page, "forms", len(forms))
	if err = output.Forms(stdout, forms, o.Compact); err != nil {
		return fmt.Errorf("trawl forms: write: %w", err)
	}
	return nil
}
