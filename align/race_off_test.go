//go:build !race

package align

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
