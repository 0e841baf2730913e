package output

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/trawl-dev/trawl/records"
)

// Articles prints articles as JSON lines, or their texts separated by a form feed
// line.
func Articles(w io.Writer, arts []records.Article, format string) error {
	if format == "text" {
		var b strings.Builder
		for i, a := range arts {
			if i > 0 {
				b.WriteString("\f\n")
			}
			b.WriteString(a.Text)
			b.WriteByte('\n')
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, a := range arts {
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return nil
}
