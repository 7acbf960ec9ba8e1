package installers

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lucid-dev/lucid/gitstore"
)

// UpdateRecord changes the JSON record at path of what an installer did
// beside the files it owns (the folders it made, a trust it added), so
// that uninstall undoes exactly that. A missing file is a zero record;
// one that change leaves empty (empty reports it) is removed.
func UpdateRecord[R any](path string, change func(*R), empty func(R) bool) error {
	r, err := ReadRecord[R](path)
	if err != nil {
		return err
	}
	change(&r)
	if empty(r) {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, _ := json.Marshal(r)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return gitstore.WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// ReadRecord reads the record at path (see UpdateRecord); a missing file
// is a zero record.
func ReadRecord[R any](path string) (R, error) {
	var r R
	b, err := gitstore.ReadFile(path, gitstore.MaxSettings)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
