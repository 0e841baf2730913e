package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestName(t *testing.T) {
	tests := []struct{ url, form, want string }{
		{"http://127.0.0.1:18082/mobile", "", "127-0-0-1-18082-mobile"},
		{"https://www.Example.org/", "", "www-example-org"},
		{"https://ex.org/caf%C3%A9", "", "ex-org-caf-c3-a9"},
		{"", "", "source"},
		// The query is part of the form's identity (issue 14): two selects of one
		// editor page are two runs.
		{"http://h.example/editor/?select=country", "", "h-example-editor-select-country"},
		{"http://h.example/editor/?select=film", "", "h-example-editor-select-film"},
		{"https://www.example.org/a/b.html?q=1#x", "", "www-example-org-a-b-html-q-1"},
		// So is a form named with --force-form.
		{"http://h.example/editor/?select=film", "2", "h-example-editor-select-film-form-2"},
		{"http://h.example/editor/?select=film", "#filters", "h-example-editor-select-film-form-filters"},
	}
	for _, tc := range tests {
		if got := Name(tc.url, tc.form); got != tc.want {
			t.Errorf("Name(%q, %q) = %q, want %q", tc.url, tc.form, got, tc.want)
		}
	}
	long := "https://ex.org/" + strings.Repeat("segment/", 30)
	got := Name(long, "")
	if len(got) > 80 || Name(long, "") != got || Name(long+"x", "") == got || Name(long, "1") == got {
		t.Errorf("long name %q (%d chars) is not a stable, distinct cut", got, len(got))
	}
}

func TestClaim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	country := Identity{URL: "http://h.example/editor/?select=country"}
	if err := Claim(dir, country); err != nil {
		t.Fatal(err)
	}
	if err := Claim(dir, country); err != nil {
		t.Fatalf("claiming again for the same form: %v", err)
	}
	film := Identity{URL: "http://h.example/editor/?select=film"}
	err := Claim(dir, film)
	if !errors.Is(err, ErrOtherForm) || !strings.Contains(err.Error(), "select=country") || !strings.Contains(err.Error(), "select=film") {
		t.Errorf("claiming for another form: %v, want ErrOtherForm naming both", err)
	}
	if err := Claim(dir, Identity{URL: country.URL, Form: "1"}); !errors.Is(err, ErrOtherForm) {
		t.Errorf("claiming for another form of the same page: %v, want ErrOtherForm", err)
	}

	// A directory of an earlier trawl: identified by probe-run.json.
	legacy := t.TempDir()
	if err := os.WriteFile(filepath.Join(legacy, ProbeRunFile), []byte(`{"url": "http://h.example/s", "options": {"force_form": ""}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Claim(legacy, Identity{URL: "http://h.example/s?x=1"}); !errors.Is(err, ErrOtherForm) {
		t.Errorf("legacy directory of another URL: %v", err)
	}
	if err := Claim(legacy, Identity{URL: "http://h.example/s"}); err != nil {
		t.Errorf("legacy directory of the same URL: %v", err)
	}
	var id Identity
	if err := ReadJSON(filepath.Join(legacy, IdentityFile), &id); err != nil || id.URL != "http://h.example/s" {
		t.Errorf("identity written: %+v, %v", id, err)
	}
	// A torn probe-run.json is named, not ignored.
	torn := t.TempDir()
	if err := os.WriteFile(filepath.Join(torn, ProbeRunFile), []byte(`{"url": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Claim(torn, film); err == nil || !strings.Contains(err.Error(), ProbeRunFile) {
		t.Errorf("torn probe-run.json: %v", err)
	}
}

func TestReadJSONL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.jsonl")
	in := "{\"n\": 2, \"kind\": \"letter\"}\n\n{\"n\": 1, \"kind\": \"Mis\xe9rables\"}\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	before := Parses("x.jsonl")
	ps, err := ReadJSONL[Probe](path)
	if err != nil || len(ps) != 2 || ps[1].Kind != "Misérables" {
		t.Fatalf("ReadJSONL = %+v, %v", ps, err)
	}
	if got := Parses("x.jsonl") - before; got != 1 {
		t.Errorf("one read counted %d times", got)
	}
	for _, tc := range []struct{ text, want string }{
		{"{\"n\": 1}\n{\"n\": \"two\"}\n", "x.jsonl:2: "},
		{"{\"n\": 1}\n\n\n{\"n\": 1} {\"n\": 2}\n", "x.jsonl:4: more than one JSON value"},
		{"{\"n\": 1", "x.jsonl:1: "},
	} {
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadJSONL[Probe](path)
		le, ok := errors.AsType[*LineError](err)
		if !ok || !strings.Contains(err.Error(), tc.want) || le.File != path {
			t.Errorf("ReadJSONL(%q) = %v, want a LineError with %q", tc.text, err, tc.want)
		}
	}
	if _, err := ReadJSONL[Probe](filepath.Join(dir, "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "form.json")
	for _, tc := range []struct{ text, want string }{
		{"", "form.json:1: empty file"},
		{"{\n  \"method\": \"GET\",\n  \"fields\": [\n", "form.json:4: the file ends inside a JSON value"},
		{"{\n  \"method\": 3\n}\n", "form.json:2:"},
		{"{\n  \"method\": \"GET\"\n}\n{}", "more than one JSON value"},
	} {
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var f Form
		err := ReadJSON(path, &f)
		if _, ok := errors.AsType[*LineError](err); !ok || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadJSON(%q) = %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestWriteAndLog(t *testing.T) {
	dir := t.TempDir()
	f := Form{Method: "GET", Action: "http://h.example/s?a=1&b=<2>", Fields: []Field{{Name: "q", Type: "search"}}}
	if err := WriteJSON(filepath.Join(dir, FormFile), f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, FormFile))
	if !strings.Contains(string(b), "a=1&b=<2>") || !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("form.json is escaped or unterminated:\n%s", b)
	}
	back, err := ReadForm(dir)
	if err != nil || back.Action != f.Action || !back.Fields[0].IsText() {
		t.Errorf("ReadForm = %+v, %v", back, err)
	}
	// An atomic rewrite leaves no temporary file behind.
	if err := WriteFile(filepath.Join(dir, FormFile), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("files after two writes: %v", ents)
	}

	log, err := CreateLog(filepath.Join(dir, ProbesFile))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{2, 1, 3} {
		if err := log.Append(Probe{N: n, Started: t0, Pages: []PageRef{}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	if err := log.Append(Probe{N: 4}); err == nil {
		t.Error("append after close succeeded")
	}
	ps, err := ReadProbes(dir)
	if err != nil || len(ps) != 3 || ps[0].N != 1 || ps[2].N != 3 {
		t.Errorf("ReadProbes = %+v, %v (want sorted by N)", ps, err)
	}
	if err := WriteJSONL(filepath.Join(dir, ProbesFile), ps[:2]); err != nil {
		t.Fatal(err)
	}
	if ps, _ := ReadProbes(dir); len(ps) != 2 {
		t.Errorf("after WriteJSONL: %d probes", len(ps))
	}
}

func TestPath(t *testing.T) {
	dir := filepath.Join("runs", "src")
	if p, err := Path(dir, "pages/0001-1.html"); err != nil || p != filepath.Join(dir, "pages", "0001-1.html") {
		t.Errorf("Path = %q, %v", p, err)
	}
	for _, bad := range []string{"", "/etc/passwd", "../other/pages/0001-1.html", "pages/../../x.html"} {
		if _, err := Path(dir, bad); !errors.Is(err, ErrOutside) {
			t.Errorf("Path(%q) = %v, want ErrOutside", bad, err)
		}
	}
}
