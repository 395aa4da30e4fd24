//go:build race

package meteringstore_test

// raceEnabled: the race detector makes a bulk test many times slower.
const raceEnabled = true
