//go:build !race

package mysqlstore_test

const raceEnabled = false
