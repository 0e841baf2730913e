//go:build race

package align

// raceEnabled is true when the tests run under the race detector, which makes the
// Badger load of the 250k-fact test KB take minutes on two cores.
const raceEnabled = true
