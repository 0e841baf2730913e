package rundir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile writes data to path so that a crash leaves either the old content or the
// new one, never a torn file: a temporary file in the same directory is written, synced
// and renamed over path (renameio). Missing parent directories are created.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := renameio.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteJSON writes v to path as indented JSON without HTML escaping, atomically.
func WriteJSON(path string, v any) error {
	b, err := MarshalJSON(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteFile(path, b)
}

// MarshalJSON is the JSON form of the run directory's JSON files: indented by two
// spaces, no HTML escaping, ending with a newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// MarshalJSONL is the JSON-lines form of vs: one compact JSON value per line, no HTML
// escaping.
func MarshalJSONL[T any](vs []T) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range vs {
		if err := enc.Encode(&vs[i]); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	return buf.Bytes(), nil
}

// WriteJSONL writes vs to path as JSON lines, atomically.
func WriteJSONL[T any](path string, vs []T) error {
	b, err := MarshalJSONL(vs)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteFile(path, b)
}
