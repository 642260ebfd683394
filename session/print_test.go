package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRecentPrint: the recent print stands for the files until it is
// forgotten (the editor reported a change) or walked afresh (a run); a
// change behind the editor's back shows once printTTL has passed, which
// is backdated here rather than waited for.
func TestRecentPrint(t *testing.T) {
	root := t.TempDir()
	meta := filepath.Join(root, "meta")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(meta, "style-guide.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("短\n")
	var r recentPrint
	first := r.of(root)
	write("a longer style guide 𝄞\n")
	if got := r.of(root); got != first {
		t.Error("the recent print was walked again within printTTL")
	}
	if got := r.fresh(root); got == first {
		t.Error("a fresh walk did not see the changed file")
	}
	changed := r.of(root)
	write("the third text, longer still 𝄞𝄞\n")
	r.forget()
	if got := r.of(root); got == changed {
		t.Error("after forget the print did not see the changed file")
	}
	third := r.of(root)
	write("the fourth, of yet another length\n")
	r.mu.Lock()
	r.at = time.Now().Add(-printTTL)
	r.mu.Unlock()
	if got := r.of(root); got == third {
		t.Error("a print older than printTTL was not walked again")
	}
}
