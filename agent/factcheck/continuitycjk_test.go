package factcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"
)

// TestContinuityHongloumeng checks every chapter of 红楼梦 against the
// one before it, unmodified, in its traditional characters and folded to
// simplified, with the test entities and with none. The edition has two
// misspelt names of its own (芳宮 for 芳官 in chapter 63, 賈蓮 for 賈璉 in
// chapter 66); those must be found, and nothing else.
func TestContinuityHongloumeng(t *testing.T) {
	dir := sharedDir(t, "corpus/hongloumeng")
	var trad, simp []string
	for ch := 1; ch <= 120; ch++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", ch)))
		if err != nil {
			t.Fatal(err)
		}
		trad = append(trad, string(b))
		simp = append(simp, testFolder.Fold(string(b)))
	}
	if simp[0] == trad[0] {
		t.Fatal("folding changed nothing")
	}
	want := []string{"63 芳宫 芳官", "66 贾莲 贾琏"}
	for _, script := range []struct {
		name     string
		chapters []string
	}{{"traditional", trad}, {"simplified", simp}} {
		for _, kn := range []struct {
			name string
			k    *Knowledge
		}{{"entities", testKnowledge(t, "hongloumeng")}, {"none", NewKnowledge(nil, nil, testFolder)}} {
			t.Run(script.name+"/"+kn.name, func(t *testing.T) {
				var got []string
				for i := 1; i < len(script.chapters); i++ {
					text := script.chapters[i]
					for _, f := range Check(text, i+1, kn.k, script.chapters[i-1]) {
						if f.Type != TypeContinuity {
							continue
						}
						got = append(got, fmt.Sprintf("%d %s %s", i+1, testFolder.Fold(text[f.Start:f.End]), testFolder.Fold(f.Suggestion)))
					}
				}
				t.Logf("%d continuity findings over 119 chapter pairs: %v", len(got), got)
				if !slices.Equal(got, want) {
					t.Errorf("findings %q, want %q", got, want)
				}
			})
		}
	}
}

// TestContinuityCJKUnits covers the parts: the names a chapter
// introduces, and what keeps a near-miss from being reported.
func TestContinuityCJKUnits(t *testing.T) {
	k := NewKnowledge(nil, nil, testFolder)
	fold := func(s string) []rune { return k.foldRunes(s) }
	intro := cjkIntroduced(fold("雨村笑道：“好。”雨村走了。他便道：“去。”他便道：“来。”众人都说：“是。”众人都说：“是。”，賈政便去，賈政又來。"))
	var names []string
	for key, in := range intro {
		names = append(names, fmt.Sprintf("%s:%d:%v", string(key.runes()), in.count, in.speaker))
	}
	slices.Sort(names)
	if want := []string{"贾政:2:false", "雨村:2:true"}; !slices.Equal(names, want) {
		t.Errorf("introduced %v, want %v", names, want)
	}
	prev := "雨村笑道：“请坐。”雨村又道：“不必。”"
	tests := []struct {
		text string
		want []string // texts of the findings
	}{
		{"次日雨存来了。", []string{"雨存"}},       // cun: a homophone
		{"次日雨村来了，雨存也来了。", []string{"雨存"}}, // the right name beside it
		{"次日雨存来了，雨存又来了。", nil},            // twice: someone else
		{"次日雨林来了。", nil},                  // 林 sounds otherwise
		{"次日雨村来了。", nil},                  // the name itself
		{"次日云村来了。", nil},                  // the first character differs
		{"次日雨存來了，雨村也來了。", []string{"雨存"}}, // traditional text
		{"Next day Yucun came.", nil},     // no CJK at all
	}
	for _, tt := range tests {
		var got []string
		for _, f := range Check(tt.text, 2, k, prev) {
			got = append(got, tt.text[f.Start:f.End])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: findings %q, want %q", tt.text, got, tt.want)
		}
	}
	// A name the author declared is the name checker's, not continuity's.
	kd := testKnowledge(t, "hongloumeng")
	for _, f := range Check("黛玉道：“好。”", 2, kd, "黛王道：“好。”黛王走了。") {
		if f.Type == TypeContinuity {
			t.Errorf("continuity finding on a declared name: %s", f.Message)
		}
	}
}

// FuzzContinuity: any previous chapter and text give findings inside the
// text, on whole characters, whatever their scripts and bytes.
func FuzzContinuity(f *testing.F) {
	f.Add("张如圭笑道：“好。”张如圭走了。翠缕道：“姑娘。”翠缕姑娘。", "张如桂来了。翠缕老爷也来了。")
	f.Add("雨村笑道：“请坐。”雨村又道", "雨存\xff来了")
	f.Add("Colonel Forster said. Penrose and Penrose.", "Captain Forster and Penrosse.")
	f.Add("", "王夫人")
	zh := testKnowledge(f, "hongloumeng")
	none := NewKnowledge(nil, nil, testFolder)
	f.Fuzz(func(t *testing.T, prev, text string) {
		for _, k := range []*Knowledge{zh, none} {
			for _, fd := range Check(text, 2, k, prev) {
				if fd.Start < 0 || fd.End < fd.Start || fd.End > len(text) {
					t.Fatalf("range [%d,%d) outside %d bytes", fd.Start, fd.End, len(text))
				}
				if utf8.ValidString(text) && (fd.Start < len(text) && !utf8.RuneStart(text[fd.Start]) || fd.End < len(text) && !utf8.RuneStart(text[fd.End])) {
					t.Fatalf("range [%d,%d) splits a rune", fd.Start, fd.End)
				}
				if fd.Type == "" || fd.Message == "" {
					t.Fatalf("empty finding %+v", fd)
				}
			}
		}
	})
}
