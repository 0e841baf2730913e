//go:build race

package ontology_test

// raceEnabled is true under the race detector, whose shadow memory counts in the
// process's anonymous memory though it is none of the loader's.
const raceEnabled = true
