package output

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/trawl-dev/trawl/probe"
)

// ProbeJSON writes the --json output of 'trawl probe': the run directory and the
// summary of the probing, on one line.
func ProbeJSON(w io.Writer, dir string, sum probe.Summary) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Dir string `json:"dir"`
		probe.Summary
	}{dir, sum})
}

// ProbeDone writes the line that ends 'trawl probe' for a person: the probes, the
// failures and the result pages kept in dir, and why probing stopped early if it did.
func ProbeDone(w io.Writer, dir string, sum probe.Summary) {
	fmt.Fprintf(w, "trawl probe: %d probes (%d failed), %d result pages in %s\n", sum.Probes, sum.Failed, sum.Pages, dir)
	if sum.Unanswered > 0 {
		fmt.Fprintf(w, "trawl probe: %d not answered: the site does not answer an empty query (its form page came back unchanged)\n", sum.Unanswered)
	}
	if sum.Stopped != "" {
		fmt.Fprintf(w, "trawl probe: stopped early: %s\n", sum.Stopped)
	}
}
