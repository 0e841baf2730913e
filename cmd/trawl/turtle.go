package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// formatFlag binds --format: nt (the N-Triples files only) or turtle (a .ttl beside
// each, for people to read).
func formatFlag(f *pflag.FlagSet, v *string) {
	f.StringVar(v, "format", "nt", "output syntax: nt (canonical N-Triples), or turtle to also write graph.ttl, links.ttl and enrichment.ttl (prefixed, grouped by subject)")
}

func checkFormat(cmdName, format string) error {
	if format != "nt" && format != "turtle" {
		return usageError("trawl %s: --format must be nt or turtle, got %q", cmdName, format)
	}
	return nil
}

// writeTurtleCopies writes a Turtle copy of each N-Triples output of dir that exists
// (graph.nt, links.nt, enrichment.nt) and returns the paths written.
func writeTurtleCopies(dir string) ([]string, error) {
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
