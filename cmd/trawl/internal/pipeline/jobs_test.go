package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadJobsErrors: every mistake of a jobs file is an error naming the file and
// line, and a good line gives its job with its settings.
func TestReadJobsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"", "lists no URL"},
		{"file:///etc/passwd\n", "jobs.txt:1"},
		{"# c\nhttp://a.example/ max-probes=x\n", "jobs.txt:2: max-probes"},
		{"http://a.example/ colour=red\n", "unknown key"},
		{"http://a.example/ rounds\n", "not key=value"},
		{"http://a.example/s\nhttp://a.example/s\n", "same directory as line 1"},
	} {
		path := filepath.Join(dir, "jobs.txt")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadJobs(path, DefaultOptions(), dir)
		var je *JobsError
		if !errors.As(err, &je) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadJobs(%q) = %v, want an error with %q", tc.text, err, tc.want)
		}
	}
	path := filepath.Join(dir, "jobs.txt")
	if err := os.WriteFile(path, []byte("http://a.example/s  max-probes=3 ignore-robots=true kb=/x\n\n# done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jobs, err := ReadJobs(path, DefaultOptions(), dir)
	if err != nil || len(jobs) != 1 || jobs[0].Options.Probe.MaxProbes != 3 || !jobs[0].Options.Probe.IgnoreRobots || jobs[0].Options.KB != "/x" {
		t.Fatalf("readJobs = %+v, %v", jobs, err)
	}
}
