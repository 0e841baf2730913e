package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// WriteTurtleCopies writes a Turtle copy of each N-Triples output of dir that exists
// (graph.nt, links.nt, enrichment.nt) and returns the paths written.
func WriteTurtleCopies(dir string) ([]string, error) {
	var out []string
	for _, name := range []string{rundir.GraphFile, rundir.LinksFile, rundir.EnrichmentFile} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return out, err
		}
		var ts []graph.Triple
		rd := graph.NewReader(bytes.NewReader(data), path)
		for {
			t, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return out, fmt.Errorf("turtle copy: %w", err)
			}
			ts = append(ts, t)
		}
		var buf bytes.Buffer
		if err := graph.WriteTurtle(&buf, ts, map[string]string{"trawl": graph.DefaultBase + "/vocab#"}); err != nil {
			return out, err
		}
		ttl := strings.TrimSuffix(path, ".nt") + ".ttl"
		if err := rundir.WriteFile(ttl, buf.Bytes()); err != nil {
			return out, err
		}
		out = append(out, ttl)
	}
	return out, nil
}
