package entitysuggest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/flowcabal/flowcabal/project"
)

// DraftPath is where the draft entity file of s goes in the project at
// root, relative to it: the first of the names WriteDrafts would try
// that no file holds yet. For an editor that creates the file itself
// (through a workspace edit) rather than have it written.
func DraftPath(root string, s Suggestion) (string, error) {
	dir := "entities/characters"
	if s.Kind == KindLocation {
		dir = "entities/locations"
	}
	base := slug(s.Name)
	for n := 1; n < 1000; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		rel := path.Join(dir, name+".md")
		full, err := project.Resolve(root, rel)
		if err != nil {
			return "", fmt.Errorf("draft %s: %w", rel, err)
		}
		if _, err := os.Lstat(full); errors.Is(err, fs.ErrNotExist) {
			return rel, nil
		} else if err != nil {
			return "", fmt.Errorf("draft %s: %w", rel, err)
		}
	}
	return "", fmt.Errorf("draft %s: every name up to %s-999 is taken", s.Name, base)
}
