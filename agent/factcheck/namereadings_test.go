package factcheck

import (
	"strings"
	"testing"
)

// TestNameEndingDropped: a declared name the book writes often, with its
// last letter dropped ("Rosing" for Rosings), is a slip, though it reads
// as the singular of the name; the book decides: a singular it writes
// too is a word of its own, and beside a name it seldom writes nothing
// is said.
func TestNameEndingDropped(t *testing.T) {
	files := func(uses int, extra string) map[string]string {
		return map[string]string{
			"entities/locations/rosings.md":    "---\nname: Rosings Park\naliases: [Rosings]\nkind: location\n---\n",
			"entities/characters/collins.md":   "---\nname: Mr. Collins\naliases: [Collins]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Mr. Collins walked to Rosings. ", uses) + extra,
		}
	}
	often, seldom := bookProject(t, files(30, "")), bookProject(t, files(3, ""))
	singular := bookProject(t, files(30, strings.Repeat("A Rosing stood there. ", 3)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"the last letter dropped", often, "Mr. Collins did not walk to Rosing, and not many days passed.", "Rosing"},
		{"the name itself", often, "Mr. Collins did not walk to Rosings, and not many days passed.", ""},
		{"a name the book seldom writes", seldom, "Mr. Collins did not walk to Rosing, and not many days passed.", ""},
		{"a singular the book writes", singular, "Mr. Collins did not walk to Rosing, and not many days passed.", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestAccentsLeftOffAFrequentName: beside a name the book writes often
// with its accents (Sónya), the form without them that the book never
// writes is a slip; where the book writes the bare form too (Napoleon
// beside Napoléon), or seldom writes the name, it is a way of writing.
func TestAccentsLeftOffAFrequentName(t *testing.T) {
	files := func(uses int, extra string) map[string]string {
		return map[string]string{
			"entities/characters/sonya.md":     "---\nname: Sónya\nkind: character\n---\n",
			"entities/characters/boris.md":     "---\nname: Borís Drubetskóy\naliases: [Borís]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Sónya and Borís came in. ", uses) + extra,
		}
	}
	often, seldom := bookProject(t, files(30, "")), bookProject(t, files(3, ""))
	bare := bookProject(t, files(30, strings.Repeat("Sonya wrote. ", 3)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"accents left off", often, "Before Sonya and her mother, if Borís happened to be mentioned, she spoke freely.", "Sonya"},
		{"the name as the book writes it", often, "Before Sónya and her mother, if Borís happened to be mentioned, she spoke freely.", ""},
		{"a name the book seldom writes", seldom, "Before Sonya and her mother, if Borís happened to be mentioned, she spoke freely.", ""},
		{"a bare form the book writes", bare, "Before Sonya and her mother, if Borís happened to be mentioned, she spoke freely.", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestTransliterationEnding: a Russian name's -off or -eff is the -ov or
// -ev of another way of writing it (Kutúzoff for Kutúzov), one slip
// though two letters change, unless the book writes it so.
func TestTransliterationEnding(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/kutuzov.md":   "---\nname: Kutúzov\nkind: character\n---\n",
			"entities/characters/arakcheev.md": "---\nname: Arakchéev\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Kutúzov and Arakchéev rode. ", 30) + extra,
		}
	}
	book, written := bookProject(t, files("")), bookProject(t, files(strings.Repeat("Kutúzoff said so. ", 3)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"-off for -ov", book, "The fourth column, with which Kutúzoff was, stood on the heights.", "Kutúzoff"},
		{"-eff for -ev", book, "The fourth column, with which Arakchéeff was, stood on the heights.", "Arakchéeff"},
		{"the name", book, "The fourth column, with which Kutúzov was, stood on the heights.", ""},
		{"a form the book writes", written, "The fourth column, with which Kutúzoff was, stood on the heights.", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestOtherReadingOfANameCharacter: a character of a name read otherwise
// than usual (藏 zàng in 三藏) is typed by that reading, and a character
// that reads so (葬) put for it is a slip, in a name the book writes
// often and a window it never writes; a window the book writes, or a
// name without a book to vouch for it (可亲 beside 可卿: 亲 is qìng too),
// is none.
func TestOtherReadingOfANameCharacter(t *testing.T) {
	ents := map[string]string{
		"entities/characters/tangs.md":  "---\nname: 唐三藏\naliases: [三藏]\nkind: character\n---\n",
		"entities/characters/keqing.md": "---\nname: 秦可卿\naliases: [可卿]\nkind: character\n---\n",
	}
	files := func(extra string) map[string]string {
		m := map[string]string{"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("唐三藏道：「悟空。」可卿笑了。", 30) + extra + strings.Repeat("天氣晴好，園中花開。", 100)}
		for k, v := range ents {
			m[k] = v
		}
		return m
	}
	book, written := bookProject(t, files("")), bookProject(t, files(strings.Repeat("那唐三葬來了。", 3)))
	bare := bookProject(t, ents)
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"another reading of the name's character", book, "因賜號三藏，即倚唐為姓，所以人都呼我為唐三葬。我有三個徒弟。", "唐三葬"},
		{"the name", book, "因賜號三藏，即倚唐為姓，所以人都呼我為唐三藏。我有三個徒弟。", ""},
		{"a window the book writes", written, "因賜號三藏，即倚唐為姓，所以人都呼我為唐三葬。我有三個徒弟。", ""},
		{"no book to vouch", bare, "寶玉道：「你來，可亲可愛。」", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestRareCharacterOfTheSameTop: a character the book hardly writes,
// built on the top of the name's character (舂 for 春: 𡗗 over 臼 and over
// 日), put in a name the book writes often, is a slip; a character of the
// same top the book writes often (奏) is a word, and so is the window
// where the book writes it.
func TestRareCharacterOfTheSameTop(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/tanchun.md":   "---\nname: 探春\naliases: [三姑娘]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("探春笑道：「來了。」", 40) + extra + strings.Repeat("天氣晴好，園中花開，眾人說笑一回。", 7000),
		}
	}
	book := bookProject(t, files(""))
	common := bookProject(t, files(strings.Repeat("米舂好了。", 40)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"a rare character of the same top", book, "寶釵答應了，便過來了．飯后到了探舂那邊，自有一番勸慰之言。", "探舂"},
		{"the name", book, "寶釵答應了，便過來了．飯后到了探春那邊，自有一番勸慰之言。", ""},
		{"a character the book writes often", common, "寶釵答應了，便過來了．飯后到了探舂那邊，自有一番勸慰之言。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestLastCharacterBesideAWord: a slip in a name's last character that
// makes a word with the character after it (上馱 of 沙和上馱著) is still a
// slip where the rest of the window (沙和) is written nowhere in the book
// but inside the name, as a slip in the first character is (見官音菩薩);
// where the book writes the rest on its own too (沙和泥), the window is
// two words.
func TestLastCharacterBesideAWord(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/shaseng.md":   "---\nname: 沙僧\naliases: [沙和尚]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("沙和尚道：「師父。」", 30) + strings.Repeat("他在上馱了。", 5) + extra + strings.Repeat("天氣晴好，園中花開。", 100),
		}
	}
	book, apart := bookProject(t, files("")), bookProject(t, files(strings.Repeat("把沙和泥。", 5)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"the rest written only in the name", book, "唐僧道：「教沙和上馱著。」那怪也抹了一眼。", "沙和上"},
		{"the name", book, "唐僧道：「教沙和尚馱著。」那怪也抹了一眼。", ""},
		{"the rest written apart", apart, "唐僧道：「教沙和上馱著。」那怪也抹了一眼。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestSAfterANameInS: a name ending in s makes its plural in -es, so
// another s after it ("Lucass", "Rosingss") is a slip, not a plural or a
// possessive; a plural in -es the book writes (the Lucases) is none.
func TestSAfterANameInS(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lucas.md":     "---\nname: Charlotte Lucas\naliases: [Miss Lucas, Lucas]\nkind: character\n---\n",
		"entities/locations/rosings.md":    "---\nname: Rosings Park\naliases: [Rosings]\nkind: location\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Miss Lucas walked to Rosings. ", 30) + strings.Repeat("The Lucases came. ", 3),
	})
	for _, tc := range []struct{ text, want string }{
		{"She mentioned this to her friend, Miss Lucass.", "Lucass"},
		{"In speaking of Rosingss, and her not perfectly understanding it.", "Rosingss"},
		{"She mentioned this to her friends, the Lucases.", ""},
		{"She mentioned this to her friend, Miss Lucas.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestAPairTheBookWrites: a capitalised word after a given name the files
// do not declare is another person's name ("Alphonse Kárlovich"), unless
// the book writes that given name with a declared name word one letter
// from it ("Vladímirovich Bezúkhov", the declared son's father) and the
// text's pair nowhere: then it is that pair misspelt.
func TestAPairTheBookWrites(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/pierre.md":    "---\nname: Pierre Bezúkhov\naliases: [Pierre, Bezúkhov, Count Bezúkhov]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Pierre came. ", 30) + strings.Repeat("Count Cyril Vladímirovich Bezúkhov was dying. ", 3),
	})
	for _, tc := range []struct{ text, want string }{
		{"All hope now is in Count Cyril Vladímirovich Bezúkohv. If he will not assist.", "Bezúkohv"},
		{"All hope now is in Count Cyril Vladímirovich Bezúkhov. If he will not assist.", ""},
		{"All hope now is in Alphonse Bezúkohv. If he will not assist.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestKeptPartBoundToTheName: a slip in a name's first character that
// makes a word with the character before it (說自 of 說自己) is still a
// slip where the book writes the rest of the window (鵑) only inside the
// name (紫鵑); where it writes the rest in other words too (杜鵑), the
// window may be two words.
func TestKeptPartBoundToTheName(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/zijuan.md":    "---\nname: 紫鵑\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("且說紫鵑來了。", 40) + strings.Repeat("他說自己不知。", 60) + extra + strings.Repeat("天氣晴好，園中花開。", 100),
		}
	}
	bound, apart := bookProject(t, files("")), bookProject(t, files(strings.Repeat("山上杜鵑開了。", 20)))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"the rest written only in the name", bound, "寶玉去了。且說自鵑因黛玉漸好，園中無事。", "自鵑"},
		{"the name", bound, "寶玉去了。且說紫鵑因黛玉漸好，園中無事。", ""},
		{"the rest written in other words", apart, "寶玉去了。且說自鵑因黛玉漸好，園中無事。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
