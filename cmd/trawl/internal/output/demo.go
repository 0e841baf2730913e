package output

import (
	"fmt"
	"io"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
)

// Demo is what 'trawl demo' must show: the summary of its run, what the form's fields
// take in the KB's terms, and the N-Triples files written.
type Demo struct {
	Fields  []pipeline.FieldUse `json:"fields"`
	Files   []DemoFile          `json:"ntriples"`
	Summary *pipeline.Summary   `json:"summary"`
}

// DemoFile is an N-Triples file the demo wrote, with its number of triples.
type DemoFile struct {
	File    string `json:"file"`
	Triples int    `json:"triples"`
}

// Print writes the demo's results for a person.
func (d *Demo) Print(w io.Writer) {
	d.Summary.WriteText(w)
	fmt.Fprintln(w, "\nWhat the form's fields take, in the KB's terms:")
	for _, f := range d.Fields {
		rel := "(no KB relation)"
		if f.Relation != "" {
			rel = fmt.Sprintf("%s  (confidence %.2f)", f.Relation, f.Conf)
		}
		fmt.Fprintf(w, "  field %-10s %-12q → feature %-14s → %s\n", f.Field, f.Label, f.Feature, rel)
	}
	fmt.Fprintln(w, "\nN-Triples written (each parsed back):")
	for _, f := range d.Files {
		fmt.Fprintf(w, "  %-60s %6d triples\n", f.File, f.Triples)
	}
}
