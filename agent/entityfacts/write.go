package entityfacts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/flowcabal/flowcabal/project"
)

// WriteEntity adds add to the entity file rel (relative to root) with
// [AddToFile] and replaces the file atomically (a temporary file beside
// it, renamed over it), keeping its permissions. It fails, writing
// nothing, when the file changed while it was being edited.
func WriteEntity(root, rel string, add Addition) error {
	if add.Empty() {
		return nil
	}
	full, err := project.Resolve(root, rel)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	info, err := os.Stat(full)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	out, err := AddToFile(data, add)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	f, err := os.CreateTemp(filepath.Dir(full), "."+filepath.Base(full)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	tmp := f.Name()
	_, werr := f.Write(out)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, info.Mode().Perm())
	}
	if werr == nil {
		// The author may have saved the file from an editor meanwhile:
		// their version wins.
		if now, err := os.ReadFile(full); err != nil || !bytes.Equal(now, data) {
			werr = fmt.Errorf("the file changed while the facts were being added; run again")
		}
	}
	if werr == nil {
		werr = os.Rename(tmp, full)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", rel, werr)
	}
	return nil
}
