// Package storage keeps uploaded files in a local folder (STORAGE_DIR). It
// implements the core's panel.Files port.
package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"

	"paygate/core/accounts/panel"
	"paygate/core/platform/errs"
)

// Local stores files flat in one folder. Every operation goes through an
// os.Root, so even a name that slipped past the name check, or a symbolic
// link planted in the folder, cannot reach outside it.
type Local struct {
	root *os.Root
}

var _ panel.Files = (*Local)(nil)

// namePattern is what server-chosen names look like (a ULID and an
// extension): no separators, no dot files, nothing a client wrote.
var namePattern = regexp.MustCompile(`^[0-9A-Za-z]{1,64}\.[0-9a-z]{1,8}$`)

// ErrBadName refuses a name that is not a server-chosen one.
var ErrBadName = errors.New("storage: invalid file name")

const tmpPrefix = ".tmp-"

// NewLocal opens (creating it if needed) the folder dir.
func NewLocal(dir string) (*Local, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("storage folder %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("storage folder %s: %w", dir, err)
	}
	return &Local{root: root}, nil
}

// Close releases the folder.
func (l *Local) Close() error { return l.root.Close() }

func checkName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%w: %q", ErrBadName, name)
	}
	return nil
}

// Save writes r to a temporary file, syncs it and renames it to name, so a
// reader never sees half a file and a failed copy (r's error, a cancelled
// ctx) leaves nothing behind.
func (l *Local) Save(ctx context.Context, name string, r io.Reader) (err error) {
	if err := checkName(name); err != nil {
		return err
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := tmpPrefix + hex.EncodeToString(rnd[:])
	f, err := l.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("storage: create %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			_ = l.root.Remove(tmp)
		}
	}()
	if _, err = io.Copy(f, ctxReader{ctx, r}); err != nil {
		return fmt.Errorf("storage: write %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("storage: sync %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", name, err)
	}
	if err = l.root.Rename(tmp, name); err != nil {
		return fmt.Errorf("storage: rename %s: %w", name, err)
	}
	return nil
}

// Open opens a stored file for reading; a missing one is errs.ErrNotFound.
func (l *Local) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	f, err := l.root.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errs.ErrNotFound.Wrap(err)
		}
		return nil, fmt.Errorf("storage: open %s: %w", name, err)
	}
	return f, nil
}

// Delete removes a stored file; a missing one is not an error.
func (l *Local) Delete(ctx context.Context, name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if err := l.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete %s: %w", name, err)
	}
	return nil
}

// ctxReader stops a copy when its context ends (a client gone mid-upload).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
