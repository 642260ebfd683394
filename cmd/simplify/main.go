// Command simplify copies a folder of Chinese text (a corpus book, or an
// evaluation set: entity files and planted.jsonl) into another folder in
// simplified characters, by OpenCC's phrase-level t2s conversion. Authors
// of web novels write simplified Chinese, the corpus books are printed in
// traditional characters: scripts/role-c-simplified.sh uses this to measure
// Role C and the entity suggestions on both forms of the same sets.
//
// Usage: simplify SRC DST
//
// Text files are converted whole. In a .jsonl file of planted cases every
// string but the id, type and book is converted, and each case's span is
// set again from the converted excerpts, as phrase conversion may change
// a length.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/longbridgeapp/opencc"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: simplify SRC DST")
		os.Exit(2)
	}
	cc, err := opencc.New("t2s")
	if err != nil {
		fmt.Fprintln(os.Stderr, "simplify:", err)
		os.Exit(1)
	}
	if err := simplifyTree(cc.Convert, os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "simplify:", err)
		os.Exit(1)
	}
}

// simplifyTree writes every file under src, converted, at the same place
// under dst.
func simplifyTree(conv func(string) (string, error), src, dst string) error {
	return filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var out string
		if strings.HasSuffix(p, ".jsonl") {
			out, err = simplifyCases(conv, b)
		} else {
			out, err = conv(string(b))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, []byte(out), 0o644)
	})
}

// simplifyCases converts a planted-case file line by line.
func simplifyCases(conv func(string) (string, error), b []byte) (string, error) {
	var out strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c map[string]any
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return "", fmt.Errorf("line %d: %w", n, err)
		}
		for k, v := range c {
			if k == "id" || k == "type" || k == "book" {
				continue
			}
			cv, err := convertValue(conv, v)
			if err != nil {
				return "", fmt.Errorf("line %d: %w", n, err)
			}
			c[k] = cv
		}
		respan(c)
		j, err := json.Marshal(c)
		if err != nil {
			return "", err
		}
		out.Write(j)
		out.WriteByte('\n')
	}
	return out.String(), sc.Err()
}

func convertValue(conv func(string) (string, error), v any) (any, error) {
	switch x := v.(type) {
	case string:
		return conv(x)
	case []any:
		for i := range x {
			cv, err := convertValue(conv, x[i])
			if err != nil {
				return nil, err
			}
			x[i] = cv
		}
	case map[string]any:
		for k := range x {
			cv, err := convertValue(conv, x[k])
			if err != nil {
				return nil, err
			}
			x[k] = cv
		}
	}
	return v, nil
}

// respan sets a case's span (code points of the modified excerpt) to
// cover where the converted excerpts differ, and no less than the span as
// written where the lengths still allow it: the original span may be wider
// than the difference, and the checker's finding is judged against it.
func respan(c map[string]any) {
	o, ok1 := c["original_excerpt"].(string)
	m, ok2 := c["modified_excerpt"].(string)
	sp, ok3 := c["span"].([]any)
	if !ok1 || !ok2 || !ok3 || len(sp) != 2 {
		return
	}
	s0, ok1 := sp[0].(float64)
	s1, ok2 := sp[1].(float64)
	if !ok1 || !ok2 {
		return
	}
	or, mr := []rune(o), []rune(m)
	pre := 0
	for pre < len(or) && pre < len(mr) && or[pre] == mr[pre] {
		pre++
	}
	suf := 0
	for suf < len(or)-pre && suf < len(mr)-pre && or[len(or)-1-suf] == mr[len(mr)-1-suf] {
		suf++
	}
	start := min(int(s0), pre)
	end := max(min(int(s1), len(mr)), len(mr)-suf)
	c["span"] = []int{start, end}
}
