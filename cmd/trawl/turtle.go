package main

import (
	"github.com/spf13/pflag"
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
