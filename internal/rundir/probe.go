package rundir

import "time"

// The probe log of a run directory: probes.jsonl has one Probe per line, and each page
// of a probe is saved under pages/. These types are the contract between the prober,
// package records (through cmd, which passes pages and their query terms), package
// schema and cmd. Package probe names them with aliases (probe.Probe = rundir.Probe).

// Probe is one submission of the form (one line of probes.jsonl).
type Probe struct {
	// N numbers the probes of a run from 1, in the order they were run.
	N int `json:"n"`
	// Kind says why the probe was made: "nonsense", "stopword", "letter", "option",
	// "term", "empty", "plan" (an explicit plan, e.g. ontology-guided), "mapping"
	// (re-submission by the input–output mapping).
	Kind string `json:"kind"`
	// Assignment maps field names to the values submitted (fields left at their
	// defaults are not listed).
	Assignment map[string]string `json:"assignment"`
	// Terms are the query terms of this probe: the values typed into text fields, used
	// by FOREST as signifiers.
	Terms []string `json:"terms,omitempty"`
	// URL is the final URL of the first result page; Status its HTTP status (0 when the
	// results came without navigation).
	URL    string `json:"url"`
	Status int    `json:"status"`
	// How the submission was triggered: "submit", "enter" or "click"; Navigated is false
	// for results rendered in place by scripts.
	Trigger   string `json:"trigger,omitempty"`
	Navigated bool   `json:"navigated"`
	// Pages are the result pages of the probe (the first page, then pages reached by
	// following "next" links), as files relative to the run directory.
	Pages []PageRef `json:"pages"`
	// Timing.
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	// Error is set when the probe failed; the pages fetched before the failure are kept
	// (a first page that could not count is not).
	Error string `json:"error,omitempty"`
	// Unanswered is set, instead of Error, when the site answered a probe whose text
	// boxes were all empty with its form page unchanged: the site does not answer an
	// empty query. It says so and why; such a probe keeps no page, gives no record and
	// is not a failure (a probe with a word typed that gets the form page back is).
	Unanswered string `json:"unanswered,omitempty"`
	// Attempts is how often the probe was tried (see MaxAttempts); the reasons of the
	// failed attempts are among the Warnings.
	Attempts int `json:"attempts,omitempty"`
	// Warnings are what went wrong without failing the probe: a page that did not
	// settle, a dialog closed, pagination stopped early.
	Warnings []string `json:"warnings,omitempty"`
	// HTTP says what the HTTP path did (Options.HTTPCompare): "same" or "differs: …"
	// for a browser probe checked against its HTTP fetch, "http" for pages fetched over
	// HTTP, "browser: …" when the browser had to take over.
	HTTP string `json:"http,omitempty"`
}

// PageRef is one saved result page.
type PageRef struct {
	// File is the path of the DOM (outerHTML after scripts ran), relative to the run
	// directory, e.g. "pages/0003-1.html".
	File string `json:"file"`
	// URL is the page's URL; Status its HTTP status (0 if not navigated).
	URL    string `json:"url"`
	Status int    `json:"status"`
	// Screenshot is a PNG of the page relative to the run directory, if one was taken.
	Screenshot string `json:"screenshot,omitempty"`
	// Bytes is the size of the saved DOM.
	Bytes int `json:"bytes"`
	// Elapsed is the time from the trigger (submission or "next" click) to the page
	// being read.
	Elapsed time.Duration `json:"elapsed_ns,omitempty"`
	// Via says how the page was fetched: "browser" or "http" (a plain GET, see
	// Options.HTTPCompare).
	Via string `json:"via,omitempty"`
}
