package records

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// The files records adds to a run directory.
const (
	WrapperFile = "wrapper.json"
	RecordsFile = "records.jsonl"
)

// WriteRecords writes recs as JSON lines, one record per line (internal/rundir reads
// them: rundir.ReadJSONL[records.Record]).
func WriteRecords(w io.Writer, recs []Record) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("records: write record %d: %w", i+1, err)
		}
	}
	return bw.Flush()
}
