package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A stage that finishes writes a marker, .trawl/<stage>.done, holding the digest of
// its inputs and options; a later run skips the stage while that digest still matches.

// Marker is the content of .trawl/<stage>.done.
type Marker struct {
	Stage    string    `json:"stage"`
	Digest   string    `json:"digest"`
	Finished time.Time `json:"finished"`
	Seconds  float64   `json:"seconds"`
}

// MarkerFile is the marker of a stage, relative to the run directory.
func MarkerFile(stage string) string { return StateDir + "/" + stage + ".done" }

// PlanFile is the plan of guided round r, relative to the run directory.
func PlanFile(r int) string { return fmt.Sprintf("%s/round-%d.plan.json", StateDir, r) }

// ReadMarkers reads the stage markers of the run directory dir, oldest first. A torn
// marker is left out: its stage counts as not done.
func ReadMarkers(dir string) []Marker {
	ents, err := os.ReadDir(filepath.Join(dir, StateDir))
	if err != nil {
		return nil
	}
	var out []Marker
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".done") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, StateDir, e.Name()))
		if err != nil {
			continue
		}
		var m Marker
		if json.Unmarshal(b, &m) == nil && m.Stage != "" {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Marker) int { return a.Finished.Compare(b.Finished) })
	return out
}
