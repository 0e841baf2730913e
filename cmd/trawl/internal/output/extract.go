package output

import (
	"encoding/json"
	"io"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/records"
)

// ExtractSummary is the --json summary of 'trawl extract'.
type ExtractSummary struct {
	XPath   string              `json:"xpath"`
	Records int                 `json:"records"`
	Pages   []records.PageClass `json:"pages"`
	Skipped []string            `json:"skipped,omitempty"`
}

// ExtractJSON writes the --json summary of an extraction, with the pages skipped.
func ExtractJSON(w io.Writer, ex *pipeline.Extraction, skipped []string) error {
	sum := ExtractSummary{XPath: ex.Wrapper.XPath, Records: len(ex.Records), Pages: ex.Wrapper.Pages, Skipped: skipped}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(sum)
}
