package pipeline

import (
	"time"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// Options configure one run of the pipeline on one source, or one of its stages.
type Options struct {
	// URL is the page with the search form.
	URL string `json:"url"`
	// Dir is the run directory (<out>/<rundir.Name>).
	Dir string `json:"-"`
	// KB is the reference KB: a directory written by 'trawl kb load', an N-Triples file,
	// or "" for the embedded demo KB.
	KB string `json:"kb"`

	Probe probe.Options     `json:"-"`
	Plan  probe.PlanOptions `json:"-"`
	// Records configures record isolation (FOREST) in the extract stage.
	Records records.Options `json:"-"`
	// Resubmit lets the schema stage re-submit the form to map text fields (thesis
	// §3.4); without it only the probe log and the options are used.
	Resubmit bool                  `json:"resubmit"`
	Schema   schema.Options        `json:"-"`
	Graph    schema.LabeledOptions `json:"-"`
	Align    align.Options         `json:"-"`
	Enrich   align.EnrichOptions   `json:"-"`

	// HTTPPages lets the probe stage fetch the result pages of a GET form over plain
	// HTTP once the first probes showed them equal to the browser's (probe.Options.
	// HTTPCompare, compared with FOREST).
	HTTPPages bool `json:"http_pages,omitempty"`

	// Rounds is the most ontology-guided probing rounds after the agnostic one;
	// GuidedValues the KB values tried per mapped text field and round.
	Rounds       int `json:"rounds"`
	GuidedValues int `json:"guided_values"`
	// Force redoes every stage, even those already done with the same inputs.
	Force bool `json:"-"`
	// NoReport skips report.html.
	NoReport bool `json:"no_report"`

	// Browser, when set, is shared with other pipelines (trawl batch); otherwise the
	// pipeline starts Chromium itself, only if a stage needs it.
	Browser *probe.Browser `json:"-"`
	// Progress, when set, is told about every stage.
	Progress func(Event) `json:"-"`
}

// DefaultOptions are the options of 'trawl run' without flags.
func DefaultOptions() Options {
	o := Options{
		Probe:        probe.DefaultOptions(),
		Plan:         probe.DefaultPlanOptions(),
		Records:      records.DefaultOptions(),
		Resubmit:     true,
		Schema:       schema.DefaultOptions(),
		Graph:        schema.DefaultLabeledOptions(),
		Align:        pipelineAlignOptions(),
		Enrich:       align.DefaultEnrichOptions(),
		Rounds:       2,
		GuidedValues: 6,
	}
	o.Probe.Screenshots = true
	o.Probe.Harvest = true
	return o
}

// Event reports what happened to one stage.
type Event struct {
	Stage   string
	Skipped bool // already done with the same inputs
	Elapsed time.Duration
	Err     error
}

// pipelineAlignOptions are the aligner's defaults with 1:n links: a deep-web source
// lists one book several times (editions, two lists of a library), and each record of
// it is the KB's book (decision record 2026-11-27-linking-evidence-factors).
func pipelineAlignOptions() align.Options {
	o := align.DefaultOptions()
	o.OneToMany = true
	return o
}
