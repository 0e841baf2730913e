package output

import (
	"encoding/json"
	"io"

	"github.com/trawl-dev/trawl/probe"
)

// FormsJSON is the JSON document trawl forms writes.
type FormsJSON struct {
	Forms []probe.Form `json:"forms"`
}

// Forms writes the JSON document of 'trawl forms': the forms of a page, indented
// unless compact.
func Forms(w io.Writer, forms []probe.Form, compact bool) error {
	out := FormsJSON{Forms: forms}
	if out.Forms == nil {
		out.Forms = []probe.Form{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if !compact {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(out)
}
