package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/records"
)

// folder writes n list pages in the NEXT-EVAL layout: four book records beside a menu.
func folder(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"html", "groundTruth"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	words := []string{"harbour", "lighthouse", "quay", "meadow", "orchard", "glacier", "canyon", "delta"}
	for p := 1; p <= n; p++ {
		var b strings.Builder
		b.WriteString(`<html><body><nav><a href="/">Home</a> <a href="/help">Help</a></nav><ul class="books">`)
		var truth []string
		for i := range 4 {
			w := words[(p*3+i)%len(words)]
			fmt.Fprintf(&b, `<li class="book"><a href="/b/%d">The %s of %s</a> <span>by A. Writer</span> <span>%d</span></li>`, i, w, words[(p+i)%len(words)], 1900+p*7+i)
			truth = append(truth, fmt.Sprintf(`["/body[1]/ul[1]/li[%d]"]`, i+1))
		}
		b.WriteString(`</ul></body></html>`)
		if err := os.WriteFile(filepath.Join(dir, "html", fmt.Sprintf("%d.html", p)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "groundTruth", fmt.Sprintf("%d.json", p)), []byte("["+strings.Join(truth, ",")+"]"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRun scores a folder, cross-validates it and trains a model file from it.
func TestRun(t *testing.T) {
	dir := folder(t, 6)
	var out strings.Builder
	if err := run(t.Context(), []string{dir}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "mean over 6 pages: P=1.000 R=1.000 F1=1.000") {
		t.Errorf("plain run:\n%s", out.String())
	}
	out.Reset()
	if err := run(t.Context(), []string{"-cv", "2", dir}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "cross-validated mean (2 folds) over 6 pages") || !strings.Contains(out.String(), "fold 1 (") {
		t.Errorf("cross-validation:\n%s", out.String())
	}
	file := filepath.Join(t.TempDir(), "model.json.gz")
	if err := run(t.Context(), []string{"-out", file, dir}, &out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	m, err := records.ReadListModel(f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.About, "6 NEXT-EVAL pages") {
		t.Errorf("model about %q", m.About)
	}
	out.Reset()
	if err := run(t.Context(), []string{"-alone", dir}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "mean over 6 pages: P=1.000 R=1.000 F1=1.000") {
		t.Errorf("pages alone:\n%s", out.String())
	}
	if err := run(t.Context(), nil, &out); err == nil {
		t.Error("no folder: no error")
	}
	for _, bad := range []struct {
		args []string
		flag string
	}{{[]string{"-lambdas", "1,x", dir}, "-lambdas"}, {[]string{"-lambdas", "0", dir}, "-lambdas"}, {[]string{"-lambdas", "1,3", "-inner", "1", dir}, "-inner"}} {
		if err := run(t.Context(), bad.args, &out); err == nil || !strings.Contains(err.Error(), bad.flag) {
			t.Errorf("%v: error %v, want one naming %s", bad.args, err, bad.flag)
		}
	}
}
