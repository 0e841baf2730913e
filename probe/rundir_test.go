package probe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

func TestSource(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:18082/mobile", "127-0-0-1-18082-mobile"},
		{"https://www.Example.org/", "www-example-org"},
		{"https://www.example.org/a/b.html?q=1#x", "www-example-org-a-b-html-q-1"},
		{"https://ex.org/caf%C3%A9", "ex-org-caf-c3-a9"},
		{"", "source"},
	}
	for _, tc := range tests {
		if got := Source(tc.in); got != tc.want {
			t.Errorf("Source(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := "https://ex.org/" + strings.Repeat("segment/", 30)
	got := Source(long)
	if len(got) > 80 || Source(long) != got || Source(long+"x") == got {
		t.Errorf("long source %q (%d chars) is not a stable, distinct cut", got, len(got))
	}
}

func TestRunDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src")
	d, err := CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	idx := 0
	f := Form{Index: &idx, Method: "GET", Action: "http://h.test/s", Fields: []Field{{Name: "q", Type: "text"}}}
	if err := d.WriteForm(f); err != nil {
		t.Fatal(err)
	}
	pages := []Page{{URL: "http://h.test/s?q=a", Status: 200, HTML: "<html>1</html>", Navigated: true, Screenshot: []byte("png"), Elapsed: time.Second},
		{URL: "http://h.test/s?q=a&page=2", Status: 200, HTML: "<html>2</html>", Navigated: true}}
	for _, n := range []int{2, 1} { // recorded out of order, as parallel tabs do
		p := Probe{N: n, Kind: KindLetter, Assignment: map[string]string{"q": "a"}, Terms: []string{"a"}}
		got, err := d.AddProbe(p, pages[:n])
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Pages) != n || got.Pages[0].File != filepathSlash("pages", n, 1) || got.Pages[0].Bytes != 14 {
			t.Errorf("probe %d pages = %+v", n, got.Pages)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := ReadForm(dir)
	if err != nil || back.Action != f.Action {
		t.Fatalf("ReadForm = %+v, %v", back, err)
	}
	probes, err := ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(probes) != 2 || probes[0].N != 1 || probes[1].N != 2 {
		t.Fatalf("ReadProbes = %+v", probes)
	}
	if probes[0].Pages[0].Screenshot != "pages/0001-1.png" {
		t.Errorf("screenshot ref %q", probes[0].Pages[0].Screenshot)
	}
	b, err := os.ReadFile(filepath.Join(dir, probes[1].Pages[1].File))
	if err != nil || string(b) != "<html>2</html>" {
		t.Errorf("page file: %q %v", b, err)
	}
	// A second run in the same directory starts empty.
	d2, err := CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Close(); err != nil {
		t.Fatal(err)
	}
	if ps, _ := ReadProbes(dir); len(ps) != 0 {
		t.Errorf("old probes kept: %d", len(ps))
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "pages", "*")); len(old) != 0 {
		t.Errorf("old pages kept: %v", old)
	}
	// A bad line is located.
	if err := os.WriteFile(filepath.Join(dir, ProbesFile), []byte("{\"n\":1}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadProbes(dir)
	var le *ProbeLineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("bad line error = %v", err)
	}
}

func filepathSlash(dir string, n, k int) string { return fmt.Sprintf("%s/%04d-%d.html", dir, n, k) }
