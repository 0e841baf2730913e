package ontology

import (
	"context"
	"fmt"

	"github.com/trawl-dev/trawl/ontology/demokb"
)

// DemoName names the demo KB in messages and Stats.
const DemoName = "(built-in demo KB)"

// OpenDemo loads the embedded demo KB (package demokb: books, authors, publishers,
// films, directors and countries in the YAGO 4.5 vocabulary) into an in-memory store.
func OpenDemo(ctx context.Context, opts Options) (*Store, error) {
	lo := DefaultLoadOptions()
	lo.Options = opts
	lo.MaxErrors = 0
	lo.SortMemoryMB = 32
	lo.Workers = 1
	st, _, err := LoadMemory(ctx, []Source{BytesSource("demokb/"+demokb.Name, demokb.Dump(), FormatTurtle)}, lo)
	if err != nil {
		return nil, fmt.Errorf("ontology: load the demo KB: %w", err)
	}
	st.dir = DemoName
	return st, nil
}
