package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrOutside marks a file name of a run file (a page of probes.jsonl, a screenshot) that
// does not name a file inside the run directory.
var ErrOutside = errors.New("not inside the run directory")

// Path resolves the name of a run file as the run files give it (slash-separated,
// relative to the run directory, such as "pages/0003-1.html"). It is the one rule for
// such names: an empty, absolute or ".."-escaping name is refused with an error
// wrapping ErrOutside, so that a run file can never make a stage read or show a file
// outside its run directory.
func Path(dir, name string) (string, error) {
	local := filepath.FromSlash(name)
	if name == "" || !filepath.IsLocal(local) {
		return "", fmt.Errorf("page file %q: %w", name, ErrOutside)
	}
	return filepath.Join(dir, local), nil
}

// ReadPage reads a file of the run directory named as the run files name it (a saved
// page, "pages/0003-1.html"), under Path's rule.
func ReadPage(dir, name string) ([]byte, error) {
	p, err := Path(dir, name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
