package output

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
)

// ReportJSON writes the --json output of 'trawl report': the page written, its size
// and what the run does not have yet.
func ReportJSON(w io.Writer, res report.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Report  string   `json:"report"`
		Bytes   int      `json:"bytes"`
		Missing []string `json:"missing"`
	}{res.Path, res.Bytes, append([]string{}, res.Missing...)})
}

// ReportDone writes the line that ends 'trawl report' for a person.
func ReportDone(w io.Writer, res report.Result) {
	fmt.Fprintf(w, "%s: %s", res.Path, report.SizeOf(int64(res.Bytes)))
	if len(res.Missing) > 0 {
		fmt.Fprintf(w, "; not in the run yet: %v", res.Missing)
	}
	fmt.Fprintln(w)
}
