package factcheck

import "testing"

func TestAbsence(t *testing.T) {
	tests := []struct {
		status, why string
		absent      bool
	}{
		{"away", "away", true}, {"dead", "dead", true}, {"away (brighton)", "away", true}, {"dead since 1810", "dead", true},
		{"in prison", "imprisoned", true}, {"in prison at newgate", "imprisoned", true}, {"已于八月去世", "dead", true}, {"死", "dead", true},
		{"married", "", false}, {"unmarried", "", false}, {"alive", "", false}, {"在家", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		why, absent := absence(tt.status)
		if why != tt.why || absent != tt.absent {
			t.Errorf("absence(%q) = %q, %v; want %q, %v", tt.status, why, absent, tt.why, tt.absent)
		}
	}
}
