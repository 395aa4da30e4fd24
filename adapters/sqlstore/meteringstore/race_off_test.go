//go:build !race

package meteringstore_test

const raceEnabled = false
