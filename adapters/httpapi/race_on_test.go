//go:build race

package httpapi_test

// raceEnabled: the race detector makes a bulk test many times slower.
const raceEnabled = true
