// Package manuscript brings an author's book into a project: it decodes the
// text (UTF-8, UTF-16, GB18030/GBK, Big5), splits it into chapters at the
// headings authors and web-novel sites write, unwraps hard-wrapped
// paragraphs, and writes each chapter as manuscript/chapter-NN/content.md.
//
// Invariant: the non-whitespace characters of the decoded input are those
// of the pieces a split returns (chapters, extras and arc headings), in
// order; Split checks it and fails rather than lose text.
package manuscript

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	utf16 "golang.org/x/text/encoding/unicode"
)

// Encodings are the names Decode accepts for forcing an encoding.
var Encodings = []string{"utf-8", "utf-16le", "utf-16be", "gb18030", "gbk", "big5"}

// Decode returns data as text and the name of the encoding it was read
// in. force names one of Encodings; "" detects: a byte-order mark first,
// then valid UTF-8, then UTF-16 by its zero bytes, then whichever of
// GB18030 and Big5 decodes without error to the larger share of the
// characters each encoding ranks as common (GB2312's first level, Big5's
// frequently used block). The encodings' own tables are the data: no
// character list is kept here.
func Decode(data []byte, force string) (string, string, error) {
	if force != "" {
		enc, name, ok := byName(force)
		if !ok {
			return "", "", fmt.Errorf("unknown encoding %q (one of %s)", force, strings.Join(Encodings, ", "))
		}
		if enc == nil {
			data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
			if !utf8.Valid(data) {
				return "", "", fmt.Errorf("the text is not valid UTF-8 at byte %d", validPrefix(data))
			}
			return string(data), name, nil
		}
		s, err := decodeStrict(enc, data)
		if err != nil {
			return "", "", fmt.Errorf("the text is not %s: %w", name, err)
		}
		return strings.TrimPrefix(s, "\ufeff"), name, nil
	}
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
		if !utf8.Valid(data) {
			return "", "", fmt.Errorf("the text starts with a UTF-8 byte-order mark but is not valid UTF-8 at byte %d", validPrefix(data)+3)
		}
		return string(data), "utf-8 (BOM)", nil
	case bytes.HasPrefix(data, []byte("\xff\xfe")), bytes.HasPrefix(data, []byte("\xfe\xff")):
		s, err := decodeStrict(utf16.UTF16(utf16.LittleEndian, utf16.ExpectBOM), data)
		if err != nil {
			return "", "", fmt.Errorf("the text starts with a UTF-16 byte-order mark but does not decode: %w", err)
		}
		return s, "utf-16 (BOM)", nil
	}
	// NUL bytes are valid UTF-8 but no text has them: UTF-16 without a
	// byte-order mark is tried first.
	if bytes.IndexByte(data, 0) >= 0 {
		if e, name := utf16Endianness(data); e != nil {
			if s, err := decodeStrict(e, data); err == nil {
				return s, name, nil
			}
		}
	}
	if utf8.Valid(data) && bytes.IndexByte(data, 0) < 0 {
		return string(data), "utf-8", nil
	}
	type cand struct {
		name  string
		enc   encoding.Encoding
		score func(rune) bool
	}
	best, bestScore := "", -1.0
	var bestText string
	for _, c := range []cand{
		{"gb18030", simplifiedchinese.GB18030, commonGB},
		{"big5", traditionalchinese.Big5, commonBig5},
	} {
		s, err := decodeStrict(c.enc, data)
		if err != nil {
			continue
		}
		han, common := 0, 0
		for _, r := range s {
			if unicode.Is(unicode.Han, r) {
				han++
				if c.score(r) {
					common++
				}
			}
		}
		sc := 0.0
		if han > 0 {
			sc = float64(common) / float64(han)
		}
		if sc > bestScore {
			best, bestScore, bestText = c.name, sc, s
		}
	}
	if best == "" {
		return "", "", fmt.Errorf("the text is not valid UTF-8 (at byte %d), nor UTF-16, GB18030 or Big5; name its encoding with --encoding", validPrefix(data))
	}
	return bestText, best, nil
}

func byName(name string) (encoding.Encoding, string, bool) {
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "utf-8", "utf8":
		return nil, "utf-8", true
	case "utf-16", "utf16", "utf-16le", "utf16le":
		return utf16.UTF16(utf16.LittleEndian, utf16.UseBOM), "utf-16le", true
	case "utf-16be", "utf16be":
		return utf16.UTF16(utf16.BigEndian, utf16.UseBOM), "utf-16be", true
	case "gb18030", "gb2312", "euc-cn":
		return simplifiedchinese.GB18030, "gb18030", true
	case "gbk", "cp936":
		return simplifiedchinese.GBK, "gbk", true
	case "big5", "big-5", "cp950":
		return traditionalchinese.Big5, "big5", true
	}
	return nil, "", false
}

// errInvalid is what decodeStrict reports for bytes the encoding does not
// map: x/text decoders replace them with U+FFFD silently.
var errInvalid = errors.New("bytes that do not decode")

func decodeStrict(e encoding.Encoding, data []byte) (string, error) {
	out, err := e.NewDecoder().Bytes(data)
	if err != nil {
		return "", err
	}
	// A U+FFFD the input did not spell out itself (EF BF BD) stands for
	// bytes the decoder could not map.
	if bytes.Count(out, []byte("\uFFFD")) > bytes.Count(data, []byte("\uFFFD")) {
		return "", errInvalid
	}
	return string(out), nil
}

// utf16Endianness guesses UTF-16 without a byte-order mark from where the
// zero bytes are: ASCII text in UTF-16 has one at every other byte, and
// Chinese text has its line breaks and punctuation there.
func utf16Endianness(data []byte) (encoding.Encoding, string) {
	if len(data) < 4 || len(data)%2 != 0 {
		return nil, ""
	}
	var even, odd int
	for i := 0; i+1 < len(data); i += 2 {
		if data[i] == 0 {
			even++
		}
		if data[i+1] == 0 {
			odd++
		}
	}
	pairs := len(data) / 2
	switch {
	case odd*10 >= pairs && even*50 < pairs:
		return utf16.UTF16(utf16.LittleEndian, utf16.IgnoreBOM), "utf-16le"
	case even*10 >= pairs && odd*50 < pairs:
		return utf16.UTF16(utf16.BigEndian, utf16.IgnoreBOM), "utf-16be"
	}
	return nil, ""
}

var (
	gb2312  = simplifiedchinese.GBK.NewEncoder()
	big5Enc = traditionalchinese.Big5.NewEncoder()
)

// commonGB reports whether r is in GB2312's first level (rows 16–55),
// the 3,755 characters that standard ranks as in common use.
func commonGB(r rune) bool {
	b, err := gb2312.Bytes([]byte(string(r)))
	return err == nil && len(b) == 2 && b[0] >= 0xB0 && b[0] <= 0xD7 && b[1] >= 0xA1
}

// commonBig5 reports whether r is in Big5's block of frequently used
// characters (0xA440–0xC67E, 5,401 characters).
func commonBig5(r rune) bool {
	b, err := big5Enc.Bytes([]byte(string(r)))
	if err != nil || len(b) != 2 {
		return false
	}
	code := int(b[0])<<8 | int(b[1])
	return code >= 0xA440 && code <= 0xC67E
}

func validPrefix(data []byte) int {
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return i
}
