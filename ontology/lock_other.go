//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package ontology

// lockDir is a no-op where advisory file locks are not available; Badger's own
// directory lock still refuses a second writer once the database is open.
func lockDir(dir string) (unlock func(), err error) { return func() {}, nil }
