package probe

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResumeRunDir: the kept probes stay with their pages, the pages of the others go,
// and new probes are appended after the kept ones.
func TestResumeRunDir(t *testing.T) {
	dir := t.TempDir()
	rd, err := CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all []Probe
	for n := 1; n <= 3; n++ {
		p, err := rd.AddProbe(Probe{N: n, Kind: KindStopword, Assignment: map[string]string{"q": "w"}}, []Page{{URL: "http://a/", Status: 200, HTML: "<html><body>page</body></html>"}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	// A page written by a probe that the kill stopped before its line.
	if err := os.WriteFile(filepath.Join(dir, PagesDir, "0004-1.html"), []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err = ResumeRunDir(dir, all[:2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rd.AddProbe(Probe{N: 3, Kind: KindLetter, Assignment: map[string]string{"q": "e"}}, []Page{{URL: "http://a/e", Status: 200, HTML: "<html><body>e</body></html>"}}); err != nil {
		t.Fatal(err)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Started != all[0].Started || got[1].Kind != KindStopword || got[2].Kind != KindLetter {
		t.Fatalf("probes after the resume: %+v", got)
	}
	for _, name := range []string{"0001-1.html", "0002-1.html", "0003-1.html"} {
		if _, err := os.Stat(filepath.Join(dir, PagesDir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, PagesDir, "0004-1.html")); err == nil {
		t.Error("the page of an unfinished probe was kept")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, PagesDir, "0003-1.html")); string(b) != "<html><body>e</body></html>" {
		t.Errorf("0003-1.html holds %q, want the new probe's page", b)
	}
}
