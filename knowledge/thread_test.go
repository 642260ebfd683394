package knowledge

import (
	"strings"
	"testing"
)

func thread(t *testing.T, front string) (*Entity, error) {
	t.Helper()
	d, err := ParseDocument("entities/plot-threads/x.md", []byte("---\n"+front+"---\nBody.\n"))
	if err != nil {
		t.Fatal(err)
	}
	return EntityFromDocument(d)
}

func TestThreadChapters(t *testing.T) {
	e, err := thread(t, "name: 舊債 𝄞\nopened: 3\ndue: 10\nresolved: 12\n")
	if err != nil {
		t.Fatal(err)
	}
	if !e.IsThread() || e.Opened != 3 || e.Due != 10 || e.Resolved != 12 {
		t.Fatalf("thread = kind %q opened %d due %d resolved %d", e.Kind, e.Opened, e.Due, e.Resolved)
	}
	if got := e.OpenedAt(); got != "opened in chapter 3 (entities/plot-threads/x.md:3)" {
		t.Errorf("OpenedAt = %q", got)
	}
	for _, c := range []struct {
		ch, window int
		want       ThreadState
	}{
		{2, 0, ThreadPlanned},
		{3, 0, ThreadOpen},    // due 10 is 7 ahead: beyond the default window of 5
		{5, 0, ThreadDueSoon}, // 5 ahead
		{5, 2, ThreadOpen},
		{10, 0, ThreadDueSoon},
		{11, 0, ThreadOverdue},
		{12, 0, ThreadResolved},
	} {
		if got := e.ThreadStateAt(c.ch, c.window); got != c.want {
			t.Errorf("chapter %d, window %d: %s, want %s", c.ch, c.window, got, c.want)
		}
	}
	if msg := OverdueMessage(e, 11); !strings.Contains(msg, `"舊債 𝄞" was due by chapter 10`) || !strings.Contains(msg, "opened in chapter 3") {
		t.Errorf("OverdueMessage = %q", msg)
	}
}

func TestThreadChaptersBadInput(t *testing.T) {
	for front, want := range map[string]string{
		"name: T\ndue: soon\n":         `due must be a chapter number, not "soon"`,
		"name: T\nopened: -2\n":        `opened must be a chapter number, not "-2"`,
		"name: T\nopened: 9\ndue: 4\n": "due (chapter 4) comes before opened (chapter 9)",
	} {
		e, err := thread(t, front)
		if e == nil || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: entity %v, error %v; want the entity and %q", front, e != nil, err, want)
		}
	}
}
