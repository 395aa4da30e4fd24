//go:build race

package sqlstore_test

// raceEnabled: the race detector makes a bulk test many times slower.
const raceEnabled = true
