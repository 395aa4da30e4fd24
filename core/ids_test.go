package core_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Ids clients see (payment ids address the checkout page alone) must not be
// predictable: ulid.Make and ulid.DefaultEntropy draw from math/rand, whose
// next values follow from the ids already seen. Every ULID in the project
// takes crypto/rand explicitly.
func TestNoPredictableULIDs(t *testing.T) {
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "mocks", "data", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, bad := range []string{"ulid.Make(", "ulid.DefaultEntropy(", "ulid.Monotonic("} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s uses %s: pass crypto/rand to ulid.MustNew instead", path, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
