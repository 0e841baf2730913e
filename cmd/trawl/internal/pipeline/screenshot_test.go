package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// TestWriteRecordsScreenshotNoRecords: a run without records gives errNoRecords (no
// browser is needed to find that out) and drops a screenshot of an earlier run.
func TestWriteRecordsScreenshotNoRecords(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, rundir.RecordsPNG)
	if err := rundir.WriteFile(old, []byte("an earlier screenshot")); err != nil {
		t.Fatal(err)
	}
	err := writeRecordsScreenshot(t.Context(), nil, dir, nil, nil, nil)
	if !errors.Is(err, errNoRecords) || !strings.Contains(err.Error(), "records.jsonl holds no record") {
		t.Errorf("err = %v, want errNoRecords", err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the earlier screenshot is still there (%v)", err)
	}
}
