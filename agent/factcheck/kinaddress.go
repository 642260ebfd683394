package factcheck

import (
	"strings"
	"unicode/utf8"
)

// A Chinese family calls its members by surname, place among siblings
// and a kinship term: 薛大妹妹, 林姑娘, 寶姐姐 are names no file need list.
// Such an address names the one declared person who has that surname, is
// of the term's sex, and is not known by a term of an older generation
// (薛姨媽 is no 妹妹).

// kinTerms are the terms of address of one's own generation, with the
// sex they give.
var kinTerms = []struct {
	term   string
	gender byte
}{
	{"妹妹", 'f'}, {"姐姐", 'f'}, {"妹子", 'f'}, {"姑娘", 'f'}, {"大姐", 'f'}, {"丫頭", 'f'}, {"丫头", 'f'},
	{"哥哥", 'm'}, {"兄弟", 'm'}, {"大哥", 'm'}, {"大爺", 'm'}, {"大爷", 'm'}, {"二爺", 'm'}, {"二爷", 'm'},
}

// elderTerms end the names of those one generation up or more.
var elderTerms = []string{"媽", "妈", "太太", "老爺", "老爷", "嬤嬤", "嬷嬷", "姨娘", "夫人", "母", "父", "婆"}

// siblingOrder may stand between the surname and the term (薛大妹妹).
const siblingOrder = "大二三四五六七八九十"

// kinAddressBefore is the person a kinship address ending at byte p
// names (薛大妹妹 before 今年十七歲), or nil when none ends there or it
// fits none or several.
func (k *Knowledge) kinAddressBefore(d *doc, p int) *entInfo {
	before := d.text[:p]
	// What may stand between the name and an age: 今年, 已, 才, 也.
	for _, w := range []string{"今年", "已經", "已经", "已", "才", "也", "是", "有"} {
		if b, ok := strings.CutSuffix(before, w); ok {
			before = b
			break
		}
	}
	for _, t := range kinTerms {
		b, ok := strings.CutSuffix(before, t.term)
		if !ok {
			continue
		}
		if r, size := utf8.DecodeLastRuneInString(b); strings.ContainsRune(siblingOrder, r) {
			b = b[:len(b)-size]
		}
		sur, _ := utf8.DecodeLastRuneInString(b)
		if sur == utf8.RuneError {
			return nil
		}
		return k.onlyKin(sur, t.gender)
	}
	return nil
}

// onlyKin is the one person whose name opens with the surname sur, of
// gender g, known by no elder's term; nil when none or several are.
func (k *Knowledge) onlyKin(sur rune, g byte) *entInfo {
	fs := k.foldRune(sur)
	var only *entInfo
	for _, e := range k.ents {
		first, _ := utf8.DecodeRuneInString(e.e.Name)
		if !e.person || k.foldRune(first) != fs || e.gender != g && e.gender != 0 || elderNamed(e) {
			continue
		}
		if only != nil {
			return nil
		}
		only = e
	}
	return only
}

// elderNamed reports whether e is known by a term of an older generation.
func elderNamed(e *entInfo) bool {
	for _, n := range e.e.Names() {
		for _, t := range elderTerms {
			if strings.HasSuffix(n, t) {
				return true
			}
		}
	}
	return false
}
