package entityfacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
)

func TestAddToFile(t *testing.T) {
	add := Addition{
		Facts:        []KV{{"age", "15"}, {"home", "Longbourn"}},
		Progressions: []ChapterFacts{{Chapter: 41, Facts: []KV{{"location", "Brighton"}}}, {Chapter: 51, Facts: []KV{{"status", "married"}, {"spouse", "George Wickham"}}}},
	}
	cases := []struct {
		name    string
		in, out string
		add     Addition
	}{
		{
			name: "a draft of entities suggest --write",
			in:   "---\nname: Lydia\naliases: [Miss Lydia]\nkind: character\ndraft: true\nfacts: {}\n---\n\nSuggested by `flowcabal entities suggest`.\n",
			out:  "---\nname: Lydia\naliases: [Miss Lydia]\nkind: character\ndraft: true\nfacts: { age: 15, home: Longbourn }\nprogressions:\n  - { chapter: 41, facts: { location: Brighton } }\n  - { chapter: 51, facts: { status: married, spouse: George Wickham } }\n---\n\nSuggested by `flowcabal entities suggest`.\n",
			add:  add,
		},
		{
			name: "the project's format, with comments and relations after",
			in:   "---\nname: Lydia Bennet\n# the youngest\nfacts: { position: youngest daughter, status: unmarried } # as of chapter 1\nprogressions:\n  - { chapter: 42, facts: { status: away } }\n\n# who she knows\nrelations:\n  - { to: entities/characters/george-wickham, kind: spouse }\n---\nBody text.\n",
			out: "---\nname: Lydia Bennet\n# the youngest\nfacts: { position: youngest daughter, status: unmarried, age: 15, home: Longbourn } # as of chapter 1\nprogressions:\n  - { chapter: 42, facts: { status: away } }\n" +
				"  - { chapter: 41, facts: { location: Brighton } }\n  - { chapter: 51, facts: { status: married, spouse: George Wickham } }\n\n# who she knows\nrelations:\n  - { to: entities/characters/george-wickham, kind: spouse }\n---\nBody text.\n",
			add: add,
		},
		{
			name: "block mappings, CRLF line endings, an indentless list",
			in:   "---\r\nname: Lydia\r\nfacts:\r\n    position: youngest   # her place\r\n    # more to come\r\nprogressions:\r\n- chapter: 42\r\n  facts:\r\n    status: away\r\n---\r\nBody\r\n",
			out:  "---\r\nname: Lydia\r\nfacts:\r\n    position: youngest   # her place\r\n    age: 15\r\n    home: Longbourn\r\n    # more to come\r\nprogressions:\r\n- chapter: 42\r\n  facts:\r\n    status: away\r\n- { chapter: 41, facts: { location: Brighton } }\r\n- { chapter: 51, facts: { status: married, spouse: George Wickham } }\r\n---\r\nBody\r\n",
			add:  add,
		},
		{
			name: "no facts, no progressions",
			in:   "---\nname: Lydia\nkind: character\n---\n",
			out:  "---\nname: Lydia\nkind: character\nfacts: { age: 15, home: Longbourn }\nprogressions:\n  - { chapter: 41, facts: { location: Brighton } }\n  - { chapter: 51, facts: { status: married, spouse: George Wickham } }\n---\n",
			add:  add,
		},
		{
			name: "empty values, with a comment",
			in:   "---\nname: Lydia\nfacts:   # fill in\nprogressions: []\nrelations: []\n---\n",
			out:  "---\nname: Lydia\nfacts: { age: 15, home: Longbourn }   # fill in\nprogressions:\n  - { chapter: 41, facts: { location: Brighton } }\n  - { chapter: 51, facts: { status: married, spouse: George Wickham } }\nrelations: []\n---\n",
			add:  add,
		},
		{
			name: "values that need quotes; Chinese with an astral character; a flow mapping over lines with a trailing comma",
			in:   "---\nname: 林黛玉\nfacts: {\n  home: 蘇州, # where she grew up\n}\nprogressions: [ { chapter: 2, facts: { age: 6 } } ]\n---\n黛玉。\n",
			out:  "---\nname: 林黛玉\nfacts: {\n  home: 蘇州, note: \"a: b, c\", flower: \"yes\", 琴: 𝄞譜 # where she grew up\n}\nprogressions: [ { chapter: 2, facts: { age: 6 } }, { chapter: 3, facts: { home: 榮國府 } } ]\n---\n黛玉。\n",
			add:  Addition{Facts: []KV{{"note", "a: b, c"}, {"flower", "yes"}, {"琴", "𝄞譜"}}, Progressions: []ChapterFacts{{3, []KV{{"home", "榮國府"}}}}},
		},
		{
			name: "a BOM, and a progression only",
			in:   "\ufeff---\nname: Lydia\nfacts: { age: 15 }\nrelations: []\n---\n",
			out:  "\ufeff---\nname: Lydia\nfacts: { age: 15 }\nprogressions:\n  - { chapter: 41, facts: { location: Brighton } }\nrelations: []\n---\n",
			add:  Addition{Progressions: add.Progressions[:1]},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := AddToFile([]byte(c.in), c.add)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.out {
				t.Fatalf("got\n%s\nwant\n%s", got, c.out)
			}
			// What the file declares now is the old entity plus the
			// addition (AddToFile checks it too; this checks the check).
			d, err := knowledge.ParseDocument("e.md", got)
			if err != nil {
				t.Fatal(err)
			}
			e, err := knowledge.EntityFromDocument(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, kv := range c.add.Facts {
				if e.Facts[kv.Key] != kv.Value {
					t.Errorf("fact %s = %q, want %q", kv.Key, e.Facts[kv.Key], kv.Value)
				}
			}
			for _, p := range c.add.Progressions {
				for _, kv := range p.Facts {
					if got := e.FactsAsOf(p.Chapter)[kv.Key]; got != kv.Value {
						t.Errorf("chapter %d %s = %q, want %q", p.Chapter, kv.Key, got, kv.Value)
					}
				}
			}
		})
	}
}

func TestAddToFileRefuses(t *testing.T) {
	add := Addition{Facts: []KV{{"age", "15"}}}
	cases := []struct{ name, in, want string }{
		{"no front matter", "Lydia is fifteen.\n", "no front matter"},
		{"no closing fence", "---\nname: Lydia\n", "no closing"},
		{"a flow root", "---\n{name: Lydia, facts: {}}\n---\n", "block mapping"},
		{"facts a list", "---\nname: Lydia\nfacts: [age]\n---\n", "not a mapping"},
		{"the key is there already", "---\nname: Lydia\nfacts: { age: 16 }\n---\n", "declared already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := AddToFile([]byte(c.in), add)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q; got\n%s", err, c.want, got)
			}
		})
	}
}

// TestVerify checks the read-back that stands between a wrong edit and
// the author's file.
func TestVerify(t *testing.T) {
	old := "---\nname: Lydia\naliases: [Liddy]\nfacts: { age: 15 }\n---\nBody\n"
	add := Addition{Facts: []KV{{"home", "Longbourn"}}, Progressions: []ChapterFacts{{41, []KV{{"location", "Brighton"}}}}}
	good := "---\nname: Lydia\naliases: [Liddy]\nfacts: { age: 15, home: Longbourn }\nprogressions: [{chapter: 41, facts: {location: Brighton}}]\n---\nBody\n"
	if err := verify([]byte(old), []byte(good), add); err != nil {
		t.Fatalf("the right edit refused: %v", err)
	}
	for name, bad := range map[string]string{
		"body changed":       strings.Replace(good, "Body", "Bdy", 1),
		"alias lost":         strings.Replace(good, "[Liddy]", "[]", 1),
		"old fact changed":   strings.Replace(good, "age: 15", "age: 16", 1),
		"fact missing":       strings.Replace(good, ", home: Longbourn", "", 1),
		"fact extra":         strings.Replace(good, "home: Longbourn", "home: Longbourn, eyes: blue", 1),
		"progression wrong":  strings.Replace(good, "chapter: 41", "chapter: 42", 1),
		"front matter broke": strings.Replace(good, "facts: {", "facts: {{", 1),
	} {
		if err := verify([]byte(old), []byte(bad), add); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestWriteEntityKeepsModeAndFailsClean(t *testing.T) {
	root := t.TempDir()
	rel := "entities/characters/lydia.md"
	full := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	in := "---\nname: Lydia\nfacts: {}\n---\nBody\n"
	if err := os.WriteFile(full, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteEntity(root, rel, Addition{Facts: []KV{{"age", "15"}}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(full)
	if string(data) != "---\nname: Lydia\nfacts: { age: 15 }\n---\nBody\n" {
		t.Fatalf("wrote\n%s", data)
	}
	if st, _ := os.Stat(full); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	// A refused edit leaves the file and no temporary file behind.
	if err := WriteEntity(root, rel, Addition{Facts: []KV{{"age", "16"}}}); err == nil {
		t.Fatal("a second age was written")
	}
	if after, _ := os.ReadFile(full); string(after) != string(data) {
		t.Fatalf("the file changed:\n%s", after)
	}
	if des, _ := os.ReadDir(filepath.Dir(full)); len(des) != 1 {
		t.Errorf("files left behind: %v", des)
	}
	if err := WriteEntity(root, "../outside.md", Addition{Facts: []KV{{"age", "15"}}}); err == nil {
		t.Error("a path outside the project was accepted")
	}
}

// FuzzAddToFile: any file, any addition: no panic, and an edit that is
// returned keeps the body and reads back as the old entity plus the
// addition (AddToFile's own check, asserted here from outside).
func FuzzAddToFile(f *testing.F) {
	for _, s := range []string{
		"---\nname: A\nfacts: {}\n---\nbody\n",
		"---\nname: A\nfacts: { a: b } # c\nprogressions:\n  - { chapter: 1, facts: { a: c } }\n---\n",
		"---\r\nname: A\r\nfacts:\r\n  a: b\r\nprogressions: []\r\n---\r\n",
		"---\nname: A\nfacts: {a: \"x}\", 'b': 'it''s'}\n---\n",
		"---\nname: A\nfacts:\n---\n",
		"\ufeff---\nname: 林\n---\n𝄞\n",
	} {
		f.Add([]byte(s), "key", "value: with, marks", 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, key, value string, ch int) {
		add := Addition{Facts: []KV{{normKey(key), strings.TrimSpace(value)}}, Progressions: []ChapterFacts{{ch & 0xff, []KV{{"state", value}}}}}
		if add.Facts[0].Key == "" || add.Facts[0].Value == "" || strings.TrimSpace(value) == "" {
			return
		}
		out, err := AddToFile(data, add)
		if err != nil {
			return
		}
		od, err1 := knowledge.ParseDocument("e.md", data)
		nd, err2 := knowledge.ParseDocument("e.md", out)
		if err1 != nil || err2 != nil || od.Body != nd.Body {
			t.Fatalf("body changed or unreadable: %v %v\n%q\n%q", err1, err2, data, out)
		}
		e, err := knowledge.EntityFromDocument(nd)
		if err != nil || e.Facts[add.Facts[0].Key] != add.Facts[0].Value {
			t.Fatalf("fact not read back: %v\n%q", err, out)
		}
	})
}
