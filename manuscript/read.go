package manuscript

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// ReadSources reads the inputs of an import (paths on disk) and returns
// them with the encodings they were read as: a folder gives its text
// files in natural order, each one chapter file; several files are each
// a chapter file too; one file is a whole book.
func ReadSources(args []string, encName string) ([]Source, []string, error) {
	var files []string
	whole := len(args) > 1
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, nil, err
		}
		if !st.IsDir() {
			files = append(files, a)
			continue
		}
		whole = true
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, nil, err
		}
		var names []string
		for _, e := range ents {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".txt", ".md", ".markdown", ".text":
				if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					names = append(names, e.Name())
				}
			}
		}
		slices.SortFunc(names, NaturalCompare)
		if len(names) == 0 {
			return nil, nil, fmt.Errorf("%s has no .txt or .md files", a)
		}
		for _, n := range names {
			files = append(files, filepath.Join(a, n))
		}
	}
	var srcs []Source
	var encs []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		text, enc, err := Decode(data, encName)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		if !slices.Contains(encs, enc) {
			encs = append(encs, enc)
		}
		srcs = append(srcs, Source{Name: f, Text: text, Whole: whole})
	}
	return srcs, encs, nil
}

// NaturalCompare orders names as people count: "2.txt" before "10.txt",
// "第2章" before "第10章".
func NaturalCompare(a, b string) int {
	for a != "" && b != "" {
		ra, _ := utf8.DecodeRuneInString(a)
		rb, _ := utf8.DecodeRuneInString(b)
		if isDigit(ra) && isDigit(rb) {
			na, restA := leadingNumber(a)
			nb, restB := leadingNumber(b)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
			a, b = restA, restB
			continue
		}
		if ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		a, b = a[utf8.RuneLen(ra):], b[utf8.RuneLen(rb):]
	}
	return len(a) - len(b)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func leadingNumber(s string) (uint64, string) {
	var n uint64
	i := 0
	for i < len(s) && isDigit(rune(s[i])) {
		if n < 1<<60 {
			n = n*10 + uint64(s[i]-'0')
		}
		i++
	}
	return n, s[i:]
}
