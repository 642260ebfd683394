package factcheck

import (
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A birthday stated in Chinese: a date of the lunar calendar (正月初一日,
// 八月十五) said to be when someone was born (元春是正月十五日所生, 寶釵
// 的生日是正月二十一日). A date is compared by month and day with a
// declared birthday; a date that is not said to be a birth (a feast, a
// letter's date) is nothing to compare.

// cjkDate is a month and a day (1-30), 0 where the text gives none.
type cjkDate struct{ month, day int }

// parseCJKDate reads a folded date at the start of rs: a month (正月,
// 腊月, 冬月 or a number and 月) and optionally a day (初N or a number,
// then 日 or 号 or nothing). n is the runes read.
func parseCJKDate(rs []rune) (dt cjkDate, n int, ok bool) {
	i := 0
	switch {
	case len(rs) >= 2 && rs[1] == '月' && strings.ContainsRune("正腊冬", rs[0]):
		dt.month = map[rune]int{'正': 1, '冬': 11, '腊': 12}[rs[0]]
		i = 2
	default:
		j := 0
		for j < len(rs) && j < 3 && prose.IsCJKNumeral(rs[j]) {
			j++
		}
		if j == 0 || j >= len(rs) || rs[j] != '月' {
			return cjkDate{}, 0, false
		}
		m, ok := prose.ParseCJKNumber(string(rs[:j]))
		if !ok || m < 1 || m > 12 {
			return cjkDate{}, 0, false
		}
		dt.month, i = m, j+1
	}
	k := i
	if k < len(rs) && rs[k] == '初' {
		k++
	}
	j := k
	for j < len(rs) && j-k < 3 && prose.IsCJKNumeral(rs[j]) {
		j++
	}
	if j > k {
		if d, ok := prose.ParseCJKNumber(string(rs[k:j])); ok && d >= 1 && d <= 30 {
			dt.day, i = d, j
			if i < len(rs) && (rs[i] == '日' || rs[i] == '号') {
				i++
			}
		}
	}
	return dt, i, true
}

// birthKeys are the fact keys of a birthday, folded and lower case.
var birthKeys = wordSet("birthday", "birth date", "date of birth", "born on", "生日", "诞辰", "寿辰", "生辰")

// checkCJKBirthdays finds a date said to be a birth against the declared
// birthday of whose it is said.
func (k *Knowledge) checkCJKBirthdays(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	var eff []effMention
	var out []Finding
	rs := d.frunes
	for i := 0; i < len(rs); i++ {
		if i > 0 && prose.IsCJKNumeral(rs[i-1]) {
			continue
		}
		dt, n, ok := parseCJKDate(rs[i:])
		if !ok || dt.day == 0 {
			continue
		}
		end := i + n
		// Said to be a birth: 所生, 生的, 出生, 生 right after; 生日是 or
		// 生于 right before.
		after := string(rs[end:min(len(rs), end+2)])
		before := string(rs[max(0, i-3):i])
		if !strings.HasPrefix(after, "所生") && !strings.HasPrefix(after, "生的") && !strings.HasPrefix(after, "出生") &&
			!strings.HasSuffix(before, "生日是") && !strings.HasSuffix(before, "生于") && !strings.HasSuffix(before, "生在") {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		var key, val string
		var declared cjkDate
		has := func(e *entInfo) bool {
			for fk, fv := range d.factsOf(e) {
				if !birthKeys[normKey(string(k.foldRunes(fk)))] {
					continue
				}
				if dd, _, ok := parseCJKDate(k.foldRunes(strings.TrimSpace(fv))); ok && dd.day > 0 {
					key, val, declared = fk, fv, dd
					return true
				}
			}
			return false
		}
		e := k.cjkHolder(d, eff, d.roff[i], 60, has)
		if e == nil {
			continue
		}
		has(e)
		if declared == dt {
			continue
		}
		f := k.cjkFactFinding(d, e, d.roff[i], d.roff[end], key, val, 0.7)
		f.Message = fmt.Sprintf("the text says %s was born on “%s”, but %s's %s is “%s” as of chapter %d", e.e.Name, d.text[d.roff[i]:d.roff[end]], e.e.Name, key, val, d.chapter)
		f.Suggestion = strings.TrimSpace(val)
		out = append(out, f)
		i = end - 1
	}
	return out
}
