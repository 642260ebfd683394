package manuscript

import (
	"strconv"
	"strings"
)

// parseNumber reads a chapter number as authors write it: Arabic digits
// (ASCII or full-width), Roman numerals, English words ("Twelve",
// "Twenty-One", "One Hundred and Two"), or Chinese numerals (十二,
// 一百零一, 兩百, 一二零 digit by digit). ok is false for anything else.
func parseNumber(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if n, ok := parseDigits(s); ok {
		return n, true
	}
	if n, ok := parseRoman(s); ok {
		return n, true
	}
	if n, ok := parseEnglish(s); ok {
		return n, true
	}
	return parseChinese(s)
}

func parseDigits(s string) (int, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= '０' && r <= '９':
			b.WriteRune('0' + (r - '０'))
		default:
			return 0, false
		}
	}
	if b.Len() > 6 {
		return 0, false
	}
	n, err := strconv.Atoi(b.String())
	return n, err == nil
}

func parseRoman(s string) (int, bool) {
	val := map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}
	u := strings.ToUpper(s)
	total := 0
	for i := 0; i < len(u); i++ {
		v, ok := val[u[i]]
		if !ok {
			return 0, false
		}
		if i+1 < len(u) && val[u[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	// Only canonical numerals: "IIII" or "VX" are words, not numbers.
	if total <= 0 || toRoman(total) != u {
		return 0, false
	}
	return total, true
}

func toRoman(n int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

var englishUnits = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
	"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}

func parseEnglish(s string) (int, bool) {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' })
	total, cur, seen := 0, 0, false
	for _, w := range words {
		switch {
		case w == "and":
			continue
		case w == "hundred" && seen:
			cur *= 100
		case w == "thousand" && seen:
			total += cur * 1000
			cur = 0
		default:
			v, ok := englishUnits[w]
			if !ok {
				return 0, false
			}
			cur += v
			seen = true
		}
	}
	if !seen {
		return 0, false
	}
	return total + cur, true
}

var chineseDigits = map[rune]int{
	'〇': 0, '零': 0, '○': 0, '一': 1, '二': 2, '兩': 2, '两': 2, '三': 3, '四': 4, '五': 5,
	'六': 6, '七': 7, '八': 8, '九': 9, '壹': 1, '貳': 2, '贰': 2, '參': 3, '叁': 3, '肆': 4,
	'伍': 5, '陸': 6, '陆': 6, '柒': 7, '捌': 8, '玖': 9,
}

var chineseUnits = map[rune]int{'十': 10, '拾': 10, '百': 100, '佰': 100, '千': 1000, '仟': 1000, '萬': 10000, '万': 10000}

func parseChinese(s string) (int, bool) {
	rs := []rune(s)
	hasUnit := false
	for _, r := range rs {
		if _, ok := chineseUnits[r]; ok {
			hasUnit = true
		} else if _, ok := chineseDigits[r]; !ok {
			return 0, false
		}
	}
	if !hasUnit {
		// 一二零: digit by digit.
		n := 0
		for _, r := range rs {
			n = n*10 + chineseDigits[r]
		}
		return n, len(rs) > 0 && len(rs) <= 6
	}
	total, section, digit := 0, 0, -1
	for _, r := range rs {
		if d, ok := chineseDigits[r]; ok {
			digit = d
			continue
		}
		u := chineseUnits[r]
		if u == 10000 {
			if digit >= 0 {
				section += digit
			}
			total += section * u
			section, digit = 0, -1
			continue
		}
		if digit < 0 {
			digit = 1 // 十二: the leading one is left out
		}
		section += digit * u
		digit = -1
	}
	if digit > 0 {
		section += digit
	}
	return total + section, true
}
