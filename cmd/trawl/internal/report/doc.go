// Package report writes report.html, what a knowledge engineer reads of a run: one
// self-contained HTML file (inline CSS, images as data: URIs, no script, no request to
// anything) that goes top to bottom through the source, the form, the probes, a result
// page with its records outlined, the output schema, the input–output mapping, the
// alignment and what the enrichment would add. Each section says which of its files are
// missing and which command writes them, so a report of a run that stopped early is
// still useful. It reads the run directory through internal/rundir and never starts a
// browser (one file per section: section_*.go).
package report
