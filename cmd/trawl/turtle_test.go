package main

import (
	"bytes"
	"testing"
)

// TestCheckFormat: --format takes nt and turtle, and anything else is a usage error.
func TestCheckFormat(t *testing.T) {
	for _, f := range []string{"nt", "turtle"} {
		if err := checkFormat("run", f); err != nil {
			t.Errorf("--format %s: %v", f, err)
		}
	}
	if err := checkFormat("run", "rdfxml"); err == nil || exitCode(err, &bytes.Buffer{}) != exitUsage {
		t.Errorf("--format rdfxml: %v, want a usage error", err)
	}
}
