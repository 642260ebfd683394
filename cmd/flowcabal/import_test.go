package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// corpusBook reads the chapter files of a book of ../shared/corpus.
func corpusBook(t *testing.T, name string) []string {
	t.Helper()
	b, err := readBook(filepath.Join(evalShared(t), "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range b.nums {
		out = append(out, b.text[n])
	}
	return out
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

func TestInitMakesACleanProjectAndNeverOverwrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "小说 novel")
	code, out, errs := runCLI(t, "", "init", dir)
	if code != exitOK || !strings.Contains(out, "added flowcabal.toml") || !strings.Contains(out, "added workflows/chapter.flow") {
		t.Fatalf("init: exit %d\n%s%s", code, out, errs)
	}
	for _, d := range []string{"entities/characters", "entities/locations", "manuscript", "meta"} {
		if st, err := os.Stat(filepath.Join(dir, d)); err != nil || !st.IsDir() {
			t.Errorf("no %s/: %v", d, err)
		}
	}
	if code, out, errs := runCLI(t, "", "check", filepath.Join(dir, "workflows")); code != exitOK {
		t.Errorf("the starter workflow does not check clean: exit %d\n%s%s", code, out, errs)
	}
	// An existing project: the author's files stay, the missing are added.
	outline := filepath.Join(dir, "meta", "outline.md")
	os.WriteFile(outline, []byte("my outline\n"), 0o644)
	os.Remove(filepath.Join(dir, "meta", "style-guide.md"))
	code, out, _ = runCLI(t, "", "init", dir)
	if code != exitOK || out != "added meta/style-guide.md\n\nNext: flowcabal import BOOK.txt --project "+dir+", then flowcabal entities suggest --project "+dir+" --write\n" {
		t.Errorf("init again: exit %d %q", code, out)
	}
	if data, _ := os.ReadFile(outline); string(data) != "my outline\n" {
		t.Errorf("the author's outline was overwritten: %q", data)
	}
	if code, out, _ := runCLI(t, "", "init", dir); code != exitOK || !strings.Contains(out, "nothing changed") {
		t.Errorf("init a third time: %q", out)
	}
}

func TestImportWholeBookAndAgain(t *testing.T) {
	pp := corpusBook(t, "pride-and-prejudice")
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	runCLI(t, "", "init", proj)
	src := filepath.Join(dir, "book.txt")
	write := func(chapters []string) {
		data := "PRIDE AND PREJUDICE\r\n\r\n" + strings.ReplaceAll(strings.Join(chapters, "\n\n"), "\n", "\r\n")
		if err := os.WriteFile(src, []byte("\ufeff"+data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(pp)

	before := readTree(t, proj)
	code, out, errs := runCLI(t, "", "import", src, "--project", proj, "--dry-run")
	if code != exitOK || !strings.Contains(out, "62 chapters") || !strings.Contains(out, "     0  prologue") || !strings.Contains(out, "manuscript/chapter-61/content.md (create)") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errs)
	}
	if after := readTree(t, proj); len(after) != len(before) {
		t.Fatalf("the dry run wrote %d files", len(after)-len(before))
	}

	code, out, errs = runCLI(t, "", "import", src, "--project", proj)
	if code != exitOK || !strings.Contains(out, "62 new") || !strings.Contains(out, "62 chapters in") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	files := readTree(t, proj)
	for i, want := range pp {
		if got := files[fmt.Sprintf("manuscript/chapter-%02d/content.md", i+1)]; got != want {
			t.Fatalf("chapter %d differs from the source:\n%.200q\nwant\n%.200q", i+1, got, want)
		}
	}
	if got := files["manuscript/chapter-00/content.md"]; got != "PRIDE AND PREJUDICE\n" {
		t.Errorf("chapter 0 (front matter) = %q", got)
	}
	if _, err := os.Stat(filepath.Join(proj, ".flowcabal", "project.db")); err != nil {
		t.Errorf("the import was not indexed: %v", err)
	}

	// The author edits chapter 5 of the source and chapter 7 in the
	// project; the import updates 5 and keeps 7.
	pp5 := strings.Replace(pp[4], "Bingley", "Bingley the Younger", 1)
	edited := append(append([]string{}, pp...), "")[:len(pp)]
	edited[4] = pp5
	edited[6] = strings.Replace(pp[6], "Longbourn", "Longbourn House", 1)
	write(edited)
	ch7 := filepath.Join(proj, "manuscript", "chapter-07", "content.md")
	os.WriteFile(ch7, []byte(pp[6]+"\nMy own new paragraph.\n"), 0o644)
	code, out, _ = runCLI(t, "", "import", src, "--project", proj)
	if code != exitOK || !strings.Contains(out, "1 updated") || !strings.Contains(out, "1 kept") || !strings.Contains(out, "kept manuscript/chapter-07/content.md") {
		t.Errorf("import again: exit %d\n%s", code, out)
	}
	files = readTree(t, proj)
	if files["manuscript/chapter-05/content.md"] != pp5 || !strings.Contains(files["manuscript/chapter-07/content.md"], "My own new paragraph.") {
		t.Error("chapter 5 was not updated, or chapter 7 lost the author's edit")
	}
	code, out, _ = runCLI(t, "", "import", src, "--project", proj, "--force")
	if code != exitOK || !strings.Contains(out, "1 overwritten") || readTree(t, proj)["manuscript/chapter-07/content.md"] != edited[6] {
		t.Errorf("import --force: exit %d\n%s", code, out)
	}
}

// TestImportFolderOfChapterFiles: natural order (2 before 10), GB18030
// detected, a 番外 kept apart, a prologue as chapter 0.
func TestImportFolderOfChapterFiles(t *testing.T) {
	xyj := corpusBook(t, "xiyouji")[:12]
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	runCLI(t, "", "init", proj)
	in := filepath.Join(dir, "章节")
	os.MkdirAll(in, 0o755)
	enc := func(s string) []byte {
		b, err := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	os.WriteFile(filepath.Join(in, "0 楔子.txt"), enc("楔子\n\n話說此書。\n"), 0o644)
	for i, c := range xyj {
		os.WriteFile(filepath.Join(in, fmt.Sprintf("%d.txt", i+1)), enc(c), 0o644)
	}
	os.WriteFile(filepath.Join(in, "99 番外.txt"), enc("番外 八戒\n\n八戒睡了。\n"), 0o644)
	code, out, errs := runCLI(t, "", "import", in, "--project", proj)
	if code != exitOK || !strings.Contains(out, "read as gb18030") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	files := readTree(t, proj)
	for i, want := range xyj {
		if got := files[fmt.Sprintf("manuscript/chapter-%02d/content.md", i+1)]; got != want {
			t.Fatalf("chapter %d differs:\n%.100q", i+1, got)
		}
	}
	if files["manuscript/chapter-00/content.md"] != "楔子\n\n話說此書。\n" || files["manuscript/extras/after-chapter-12/content.md"] != "番外 八戒\n\n八戒睡了。\n" {
		t.Errorf("chapter 0 %q, extra %q", files["manuscript/chapter-00/content.md"], files["manuscript/extras/after-chapter-12/content.md"])
	}
}

func TestImportRefusesBadInputAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p")
	runCLI(t, "", "init", proj)
	before := readTree(t, proj)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte{0xff, 0xfe, 0x00, 0xd8, 0x41}, 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", bad, "--project", proj}, "bad.txt"},
		{[]string{"import", bad, "--project", proj, "--encoding", "ebcdic"}, "unknown encoding"},
		{[]string{"import", filepath.Join(dir, "missing.txt"), "--project", proj}, "missing.txt"},
		{[]string{"import", bad, "--project", filepath.Join(dir, "nowhere")}, "flowcabal init"},
	} {
		code, _, errs := runCLI(t, "", tc.args...)
		if code == exitOK || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q (want %q)", tc.args, code, errs, tc.want)
		}
	}
	if after := readTree(t, proj); len(after) != len(before) {
		t.Errorf("a refused import wrote %d files", len(after)-len(before))
	}
	notProject := t.TempDir()
	os.WriteFile(filepath.Join(notProject, "book.txt"), []byte("Chapter 1\n\nText.\n"), 0o644)
	if code, _, errs := runCLI(t, "", "import", filepath.Join(notProject, "book.txt"), "--project", notProject); code == exitOK || !strings.Contains(errs, "not a FlowCabal project") {
		t.Errorf("import into a folder that is no project: exit %d %q", code, errs)
	}
}

func TestNaturalCompare(t *testing.T) {
	names := []string{"10.txt", "2.txt", "1.txt", "第10章.txt", "第2章.txt", "a.txt", "chapter-100.md", "chapter-20.md"}
	want := []string{"1.txt", "2.txt", "10.txt", "a.txt", "chapter-20.md", "chapter-100.md", "第2章.txt", "第10章.txt"}
	got := append([]string(nil), names...)
	sortNatural(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v", got)
	}
}
