package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// A probe stage that is killed leaves probes.jsonl with the probes it finished, each
// with its pages (the log is appended and synced probe by probe). When the stage runs
// again with the same settings on the same form, those probes are kept and only the
// rest of the plan is run (probe.Prober.Resume), instead of starting from scratch.
// .trawl/probe-resume.json names the settings and the form that the probes in the log
// were made with; it is written before the first probe.

// resumeFile is the key of the probes in probes.jsonl, relative to the run directory.
const resumeFile = rundir.StateDir + "/probe-resume.json"

// resumeKey is what must not change for probes to be kept: the probe stage's settings
// and the form's identity (not its hidden values, which tokens change on every load).
type resumeKey struct {
	Settings any      `json:"settings"`
	XPath    string   `json:"xpath"`
	Action   string   `json:"action"`
	Method   string   `json:"method"`
	Fields   []string `json:"fields"`
}

func newResumeKey(settings any, f probe.Form) resumeKey {
	k := resumeKey{Settings: settings, XPath: f.XPath, Action: f.Action, Method: f.Method}
	for _, fd := range f.Fields {
		k.Fields = append(k.Fields, fd.Name+" "+fd.Type)
	}
	return k
}

// marshal returns the key as JSON (settings are JSON-serialisable options).
func (k resumeKey) marshal() []byte {
	b, _ := json.Marshal(k)
	return b
}

// finishedProbes returns the probes of an interrupted probe stage in dir that can be
// kept under key, with their pages: probes the log holds whole, not interrupted, whose
// pages are all on disk. It returns nothing when the log was made under another key.
func finishedProbes(dir string, key resumeKey) ([]probe.Done, error) {
	old, err := os.ReadFile(filepath.Join(dir, resumeFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(bytes.TrimSpace(old), key.marshal()) {
		return nil, nil
	}
	probes, err := loggedProbes(dir)
	if err != nil {
		return nil, err
	}
	var done []probe.Done
	for _, pr := range probes {
		if d, ok := finished(dir, pr); ok {
			done = append(done, d)
		}
	}
	return done, nil
}

// loggedProbes reads the probes of probes.jsonl in dir as a killed stage leaves it: the
// whole lines, in file order, up to a line a kill tore (the last one). A missing log
// holds no probe.
func loggedProbes(dir string) ([]probe.Probe, error) {
	log, err := os.ReadFile(filepath.Join(dir, rundir.ProbesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []probe.Probe
	for line := range bytes.SplitSeq(log, []byte("\n")) {
		var pr probe.Probe
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if json.Unmarshal(line, &pr) != nil {
			break // the line a kill tore, the last one
		}
		out = append(out, pr)
	}
	return out, nil
}

// finished returns a logged probe with its pages when it can be kept by a resumed
// stage: not interrupted, and every page of it on disk whole.
func finished(dir string, pr probe.Probe) (probe.Done, bool) {
	if strings.HasPrefix(pr.Error, "interrupted") {
		return probe.Done{}, false
	}
	d := probe.Done{Probe: pr}
	for _, ref := range pr.Pages {
		b, err := rundir.ReadPage(dir, ref.File)
		if err != nil || len(b) != ref.Bytes {
			return probe.Done{}, false
		}
		d.Pages = append(d.Pages, probe.Page{URL: ref.URL, Status: ref.Status, HTML: string(b), Elapsed: ref.Elapsed, Via: ref.Via})
	}
	return d, true
}
