package pipeline

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// JobsError is a mistake in a jobs file (ReadJobs); its message names the file and
// line.
type JobsError struct{ Msg string }

func (e *JobsError) Error() string { return e.Msg }

// CheckURL accepts only absolute http(s) URLs.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL (trawl refuses file: and other schemes)", raw)
	}
	return nil
}

// ReadJobs parses a jobs file (one URL a line with key=value settings over defaults,
// each going to its own directory under out). Errors in the file are *JobsError and
// name the file and line.
func ReadJobs(path string, defaults Options, out string) ([]Job, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &JobsError{fmt.Sprintf("trawl batch: %v", err)}
	}
	defer func() { _ = f.Close() }()
	var jobs []Job
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		job := Job{Line: n, Options: defaults}
		u := fields[0]
		if err := CheckURL(u); err != nil {
			return nil, &JobsError{fmt.Sprintf("%s:%d: %q is not an http(s) URL", path, n, u)}
		}
		for _, kv := range fields[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, &JobsError{fmt.Sprintf("%s:%d: %q is not key=value", path, n, kv)}
			}
			if err := job.Options.Set(k, v); err != nil {
				return nil, &JobsError{fmt.Sprintf("%s:%d: %s: %v", path, n, k, err)}
			}
			job.Settings = append(job.Settings, kv)
		}
		job.Options.URL = u
		dir := filepath.Join(out, rundir.Name(u, job.Options.Probe.ForceForm))
		job.Options.Dir = dir
		if prev, dup := seen[dir]; dup {
			return nil, &JobsError{fmt.Sprintf("%s:%d: %s goes to the same directory as line %d (%s)", path, n, u, prev, dir)}
		}
		seen[dir] = n
		if err := job.Options.Probe.Validate(); err != nil {
			return nil, &JobsError{fmt.Sprintf("%s:%d: %v", path, n, err)}
		}
		jobs = append(jobs, job)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trawl batch: read %s: %w", path, err)
	}
	if len(jobs) == 0 {
		return nil, &JobsError{fmt.Sprintf("trawl batch: %s lists no URL", path)}
	}
	return jobs, nil
}
