package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseFlagsInterspersed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string
		pos  []string
	}{
		{[]string{"a.flow", "-o", "x.svg"}, "x.svg", []string{"a.flow"}},
		{[]string{"-o", "x.svg", "a.flow", "b.flow"}, "x.svg", []string{"a.flow", "b.flow"}},
		{[]string{"a.flow", "--", "-o"}, "", []string{"a.flow", "-o"}},
		{[]string{"第十二章.flow", "-o=圖.svg"}, "圖.svg", []string{"第十二章.flow"}},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		out := fs.String("o", "", "")
		if err := parseFlags(fs, tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if *out != tc.out || !slices.Equal(fs.Args(), tc.pos) {
			t.Errorf("%v: -o %q args %q, want %q %q", tc.args, *out, fs.Args(), tc.out, tc.pos)
		}
	}
}
