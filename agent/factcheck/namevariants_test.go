package factcheck

import (
	"strings"
	"testing"
)

// TestNameStartAfterAnUnpairedCharacter: the first character of a long
// name the book writes often, put for one that looks alike (吏 for 史) or
// sounds alike (華 for 花), is a slip where the character before it
// makes no word with it, a pair the book writes nowhere else (因吏,
// 曾華); where the book writes the pair elsewhere, the character may be
// a word before the rest. A short manuscript's pairs tell nothing.
func TestNameStartAfterAnUnpairedCharacter(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/xiangyun.md":  "---\nname: 史湘雲\naliases: [湘雲]\nkind: character\n---\n",
			"entities/locations/huaguoshan.md": "---\nname: 花果山\nkind: location\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("史湘雲笑了。他回花果山去。", 20) + strings.Repeat("天氣晴好。", 21000) + strings.Repeat(extra, 2),
		}
	}
	plain, paired := bookProject(t, files("")), bookProject(t, files("因吏部來文。不曾華麗。"))
	short := bookProject(t, map[string]string{
		"entities/characters/xiangyun.md":  "---\nname: 史湘雲\naliases: [湘雲]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("史湘雲笑了。", 20),
	})
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{plain, "進來坐著．因吏湘云說起南邊的話，便想著父母。", "吏湘云"},
		{plain, "進來坐著．因史湘雲說起南邊的話，便想著父母。", ""},
		{plain, "我也曾華果山伏虎降龍，我也曾上天堂大鬧天宮。", "華果山"},
		{plain, "我也曾花果山伏虎降龍，我也曾上天堂大鬧天宮。", ""},
		{paired, "進來坐著．因吏湘云說起南邊的話，便想著父母。", ""},
		{paired, "我也曾華果山伏虎降龍，我也曾上天堂大鬧天宮。", ""},
		{short, "進來坐著．因吏湘云說起南邊的話，便想著父母。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestVariantSpellingOfTheSameSound: a spelling that keeps a name's
// sound (y for i, -ie for -y, a silent e dropped, a letter doubled) is a
// slip however many letters it changes; a word that is a declared name
// in another case is that name.
func TestVariantSpellingOfTheSameSound(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/kitty.md":    "---\nname: Catherine Bennet\naliases: [Kitty]\nkind: character\n---\n",
		"entities/characters/caroline.md": "---\nname: Caroline Bingley\nkind: character\n---\n",
		"entities/characters/mary.md":     "---\nname: Princess Mary Bolkónskaya\naliases: [Princess Mary, Mary, Másha, Marie]\nkind: character\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"“Kittie has no discretion in her coughs,” said her father.", "Kittie"},
		{"“Kitty has no discretion in her coughs,” said her father.", ""},
		{"“Carolyn decidedly says that none of the party will return.”", "Carolyn"},
		{"“Caroline decidedly says that none of the party will return.”", ""},
		{"Phillipp walked in.", ""},
		{"Adieu, dear and kind friend!\n\nMARY\n", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSecondPartOfAnotherName: a near-miss right after a given name that
// no file declares is another person's name ("Alphonse Kárlovich" beside
// Pierre Kirílovich), and one after "St." a saint's; after a declared
// given name, a title or alone, it is still a slip.
func TestSecondPartOfAnotherName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/pierre.md":  "---\nname: Pierre Bezúkhov\naliases: [Pierre, Pyótr Kirílovich]\nkind: character\n---\n",
		"entities/characters/natasha.md": "---\nname: Natásha Rostóva\naliases: [Natásha, Natalie]\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"“Well, then, old chap, mon très honorable Alphonse Kárlovich,” said Shinshín.", ""},
		{"“Well, then, old chap, mon très honorable Pyótr Kárlovich,” said Shinshín.", "Kárlovich"},
		{"“Well, then,” said Kárlovich, laughing.", "Kárlovich"},
		{"It was St. Natalia’s day, a holiday in the house.", ""},
		{"It was Natalia’s name day, a holiday in the house.", "Natalia"},
		{"Then Natalia laughed and ran out.", "Natalia"},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestPlaceNamedAfterItsKind: after "the villages of" a word is a place's
// name, however close to a person's (Bezúbova beside Hélène Bezúkhova);
// near a place's declared name it is still a slip.
func TestPlaceNamedAfterItsKind(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/helene.md":   "---\nname: Hélène Kurágina\naliases: [Countess Bezúkhova, Bezúkhova]\nkind: character\n---\n",
		"entities/locations/meryton.md":   "---\nname: Meryton\nkind: location\n---\n",
		"entities/locations/zakharino.md": "---\nname: Zakhárino\nkind: location\n---\n",
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"Between the hollows the villages of Bezúbova and Zakhárino showed in the distance.", ""},
		{"Between the hollows the villages of Zakhárino and Bezúbova showed in the distance.", ""},
		{"Between the hollows Bezúbova showed in the distance.", "Bezúbova"},
		{"They walked into the town of Merytn before noon.", "Merytn"},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSlipInTheNamesSlot: a look-alike first character that makes a pair
// the book writes (見王 of 見王母) is still a slip where the book fills
// that slot with the name more often (見玉帝); where the pair is the
// commoner, the window is two words.
func TestSlipInTheNamesSlot(t *testing.T) {
	book := func(slot, pair int) *Knowledge {
		return bookProject(t, map[string]string{
			"entities/characters/yudi.md": "---\nname: 玉帝\naliases: [玉皇大帝]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("眾仙去見玉帝。", slot) + strings.Repeat("玉帝大喜，傳旨。", 20) +
				strings.Repeat("又見王母來了。", pair) + strings.Repeat("天氣晴好。", 200),
		})
	}
	const text = "菩薩道：「汝等可跟貧僧去見王帝。」眾仙怡然隨往。"
	for _, tc := range []struct {
		name       string
		slot, pair int
		want       string
	}{
		{"the slot the commoner", 20, 6, "王帝"},
		{"the pair the commoner", 2, 6, ""},
	} {
		if got := strings.Join(found(book(tc.slot, tc.pair), text, 6, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPluralOfTheBooksOwnForm: the plural of a form the book writes often
// (the Buonapartes, beside Buonaparte) is a word of the book, as the form
// itself is; the plural of a form it never writes is still a slip.
func TestPluralOfTheBooksOwnForm(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/napoleon.md":  "---\nname: Napoleon Bonaparte\naliases: [Bonaparte]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("They spoke of Buonaparte again. ", 5) + strings.Repeat("Bonaparte rode on. ", 30),
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"So Genoa and Lucca are now just family estates of the Buonapartes.", ""},
		{"So Genoa and Lucca are now just family estates of the Bonapartex.", "Bonapartex"},
	} {
		if got := strings.Join(found(k, tc.text, 2, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSlipsTheDictionaryHides: one doubled letter for another (Lissy for
// Lizzy) is one slip of a name the book writes often, and none of a form
// it never writes; a dictionary word capitalised where no sentence opens
// (Pierce for Pierre) is a name mistyped, unless it opens a sentence or
// stands beside another capitalised word ("the Manna Seekers").
func TestSlipsTheDictionaryHides(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lizzy.md":  "---\nname: Elizabeth Bennet\naliases: [Lizzy]\nkind: character\n---\n",
		"entities/characters/helene.md": "---\nname: Hélène Kurágina\naliases: [Ellen]\nkind: character\n---\n",
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\n---\n",
		"entities/characters/mamma.md":  "---\nname: Countess Rostóva\naliases: [Mamma]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("“Lizzy, come here,” said Jane. ", 25) +
			strings.Repeat("Pierre smiled. ", 25) + strings.Repeat("“Mamma!” cried Natásha. ", 25),
	})
	for _, tc := range []struct{ text, want string }{
		{"“Lissy, you must not do so. You must not suspect me.”", "Lissy"},
		{"The old general Essen rode up to the staff.", ""},
		{"Contrary to his habit of being late, Pierce on that day arrived at the Bergs’ house.", "Pierce"},
		{"Pierce the skin and it bleeds, said the surgeon.", ""},
		{"They intrigue, the Astraea Lodge against the Manna Seekers.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
	noBook := bookProject(t, map[string]string{
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\n---\n",
	})
	if got := found(noBook, "Late as ever, Pierce on that day arrived.", 5, TypeName); len(got) != 0 {
		t.Errorf("with no book, a dictionary word is believed: got %q", got)
	}
}

// TestSlavicFormInTheNamesSlot: -ova beside -ovna, or -in beside -ina,
// names another person alone, but after the declared name's first word
// ("Anna Pávlova" for Anna Pávlovna) it is a slip, unless the book
// writes that pair too.
func TestSlavicFormInTheNamesSlot(t *testing.T) {
	book := func(extra string) *Knowledge {
		return bookProject(t, map[string]string{
			"entities/characters/anna.md":  "---\nname: Anna Pávlovna Schérer\naliases: [Anna Pávlovna]\nkind: character\n---\n",
			"entities/characters/marya.md": "---\nname: Márya Dmítrievna\nkind: character\n---\n",
			"entities/characters/julie.md": "---\nname: Julie Karágina\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Anna Pávlovna smiled. ", 25) + strings.Repeat("Márya Dmítrievna frowned. ", 25) +
				strings.Repeat("Julie Karágina sighed. ", 25) + extra + strings.Repeat("The weather was fine. ", 50),
		})
	}
	for _, tc := range []struct {
		name, extra, text, want string
	}{
		{"a patronymic in -ovna", "", "The guests came, and Anna Pávlova met them.", "Pávlova"},
		{"a patronymic in -evna", "", "The guests came, and Márya Dmítrieva met them.", "Dmítrieva"},
		{"a surname in -ina", "", "The guests came, and Julie Karágin met them.", "Karágin"},
		{"the form alone", "", "The guests came, and old Pávlova met them.", ""},
		{"after another first word", "", "The guests came, and Sónya Pávlova met them.", ""},
		{"a pair the book writes", strings.Repeat("Anna Pávlova danced. ", 3), "The guests came, and Anna Pávlova met them.", ""},
	} {
		if got := strings.Join(found(book(tc.extra), tc.text, 2, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
