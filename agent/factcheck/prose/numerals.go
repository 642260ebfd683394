package prose

import (
	"strconv"
	"strings"
)

var cjkDigits = map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '兩': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

var cjkScales = map[rune]int{'十': 10, '拾': 10, '百': 100, '佰': 100, '千': 1000, '仟': 1000, '万': 10000, '萬': 10000}

// ParseCJKNumber parses a Chinese numeral ("十五", "二十七", "一万") or
// digits.
func ParseCJKNumber(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	total, section, cur := 0, 0, 0
	seen, scaled, digit := false, false, false
	for _, r := range s {
		if d, ok := cjkDigits[r]; ok {
			switch {
			case !digit:
				cur = d
			case scaled:
				// "十二三" is twelve or thirteen, no one number.
				return 0, false
			default:
				cur = cur*10 + d // digit by digit: 一九一二
			}
			seen, digit = true, true
			continue
		}
		digit = false
		if d := r - '0'; d >= 0 && d <= 9 {
			cur = cur*10 + int(d)
			seen = true
			continue
		}
		sc, ok := cjkScales[r]
		if !ok {
			return 0, false
		}
		seen, scaled = true, true
		if sc == 10000 {
			total += (section + cur) * sc
			section, cur = 0, 0
			continue
		}
		section += max(cur, 1) * sc
		cur = 0
	}
	if !seen {
		return 0, false
	}
	return total + section + cur, true
}

func IsCJKNumeral(r rune) bool {
	switch r {
	case '零', '〇', '一', '二', '两', '兩', '三', '四', '五', '六', '七', '八', '九',
		'十', '拾', '百', '佰', '千', '仟', '万', '萬':
		return true
	}
	return r >= '0' && r <= '9'
}

// ParseCJKAge reads a Chinese age or count as a value gives it: "十五",
// "三歲", "七十五歲", "約五十歲", "五十上下", and the classical range of two
// neighbouring numbers, "十二三歲" (twelve or thirteen).
func ParseCJKAge(v string) (vals []int, approx bool, ok bool) {
	s := strings.TrimSpace(v)
	for _, p := range []string{"大約", "大约", "約", "约", "將近", "将近"} {
		if t, found := strings.CutPrefix(s, p); found {
			s, approx = t, true
		}
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "歲"), "岁")
	for _, p := range []string{"左右", "上下", "多", "餘", "余", "來", "来"} {
		if t, found := strings.CutSuffix(s, p); found {
			s, approx = t, true
		}
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "歲"), "岁")
	if n, ok := ParseCJKNumber(s); ok {
		return []int{n}, approx, true
	}
	// "十二三": the last two numerals are neighbouring units.
	rs := []rune(s)
	if len(rs) >= 2 {
		a, okA := ParseCJKNumber(string(rs[:len(rs)-1]))
		b, okB := ParseCJKNumber(string(rs[len(rs)-1]))
		if okA && okB && b == a%10+1 && b < 10 {
			return []int{a, a - a%10 + b}, false, true
		}
	}
	return nil, false, false
}

var ones = []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
	"thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}

var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// NumberWords spells 1 to 99 in English ("twenty-seven"); "" otherwise.
func NumberWords(n int) string {
	switch {
	case n <= 0 || n >= 100:
		return ""
	case n < 20:
		return ones[n]
	case n%10 == 0:
		return tens[n/10]
	}
	return tens[n/10] + "-" + ones[n%10]
}
