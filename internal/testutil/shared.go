package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// SharedDir returns the directory that holds the project's shared material (data/,
// sites/, notes/): $TRAWL_SHARED when set, else the first "shared" folder found beside the
// module root or one of its parents, else /work/shared. It returns "" when there is none.
func SharedDir() string {
	if d := os.Getenv("TRAWL_SHARED"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// file is <root>/internal/testutil/shared.go
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	for range 4 {
		cand := filepath.Join(filepath.Dir(dir), "shared")
		if st, err := os.Stat(filepath.Join(cand, "data")); err == nil && st.IsDir() {
			return cand
		}
		dir = filepath.Dir(dir)
	}
	// The workplace's fixed location, for a checkout made elsewhere (a CI clone).
	if st, err := os.Stat(filepath.Join(defaultShared, "data")); err == nil && st.IsDir() {
		return defaultShared
	}
	return ""
}

// defaultShared is where the shared material lives on the project's machines.
const defaultShared = "/work/shared"

// SharedData returns the path of rel under the shared data directory (for example
// "oaei2010/Persons1"). When the shared data is not on this machine, the test is
// skipped with a message naming what is missing, unless TRAWL_REQUIRE_SHARED=1 (set by
// CI), in which case it fails.
func SharedData(t testing.TB, rel string) string {
	t.Helper()
	root := SharedDir()
	p := filepath.Join(root, "data", rel)
	if root == "" {
		missing(t, "the shared data directory (set TRAWL_SHARED to the folder holding data/)")
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		missing(t, p)
		return ""
	}
	return p
}

func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("TRAWL_REQUIRE_SHARED") == "1" {
		t.Fatalf("shared test data missing: %s", what)
	}
	t.Skipf("shared test data missing: %s (set TRAWL_SHARED)", what)
}
