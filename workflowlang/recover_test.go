package workflowlang

import (
	"strings"
	"testing"
)

// tenMistakes holds ten independent syntax errors; every node after a
// mistake must still be parsed.
const tenMistakes = `workflow "w" {
  budget = = 3
}
node a {
  temperature = 
  user """
    ok {{b}}
  """
}
node b {
  model "writer"
  user "x"
}
node c {
  user """ {{}} """
}
node d {
  user """ {{a b}} """
}
node e {
  $ = 1
  user "y"
}
node f {
  checks = ["a" "b"]
  user "z"
}
node g {
  user """ {{ok """
}
node h {
  user "bad \q escape"
}
node i {
  retries = 3 4
  user "w"
}
garbage here
node j {
  user """{{@x:L9}}"""
}
`

func TestRecoveryTenMistakes(t *testing.T) {
	f := Parse("ten.flow", []byte(tenMistakes))
	var msgs []string
	for _, d := range f.Diagnostics {
		msgs = append(msgs, d.Message)
		if d.Code != CodeSyntax {
			t.Errorf("code %s for %s", d.Code, d.Message)
		}
	}
	if len(f.Diagnostics) != 12 {
		t.Errorf("got %d diagnostics, want 12:\n%s", len(f.Diagnostics), strings.Join(msgs, "\n"))
	}
	var names []string
	for _, n := range f.Nodes {
		names = append(names, n.Name.Name)
		if len(n.Prompts) != 1 {
			t.Errorf("node %s: %d prompts", n.Name.Name, len(n.Prompts))
		}
	}
	if got := strings.Join(names, ","); got != "a,b,c,d,e,f,g,h,i,j" {
		t.Errorf("nodes %s", got)
	}
	checkSpans(t, f)
}
