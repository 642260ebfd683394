package monitor

import (
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/textsearch"
)

const enText = "In a few days Mr. Bingley returned Mr. Bennet’s visit, and sat about ten minutes with him in his library. " +
	"“If I can but see one of my daughters happily settled at Netherfield,” said Mrs. Bennet to her husband, " +
	"“and all the others equally well married, I shall have nothing to wish for.” " +
	"He wore a blue coat and rode a black horse. Later he wore a blue coat again."

// zhText is traditional, as the corpus is.
const zhText = "次日，面謀之如海．如海道：“天緣湊巧，因賤荊去世，都中家岳母念及小女無人依傍教育，前已遣了男女船只來接。”" +
	"雨村一面打恭，謝不釋口，一面又問：“不知令親大人現居何職？”🙂 林黛玉拋父進京都。"

var folder = textsearch.NewFolder()

func TestLocate(t *testing.T) {
	tests := []struct {
		name, text, quote string
		near              int
		want              string // the located text; "" means not found
		how               string
	}{
		{"exact", enText, "sat about ten minutes", -1, "sat about ten minutes", HowExact},
		{"straight for curly quotes", enText, `"If I can but see one of my daughters happily settled at Netherfield," said Mrs. Bennet`, -1,
			"If I can but see one of my daughters happily settled at Netherfield,” said Mrs. Bennet", HowFolded},
		{"straight apostrophe", enText, "Mr. Bennet's visit", -1, "Mr. Bennet’s visit", HowFolded},
		{"case and spacing", enText, "  HE WORE a  blue\ncoat and rode ", -1, "He wore a blue coat and rode", HowFolded},
		{"case differs", enText, "he wore a blue coat and rode", -1, "He wore a blue coat and rode", HowFolded},
		{"a word changed", enText, "he sat about twelve minutes with him in his library", -1, "sat about ten minutes with him in his library", HowFuzzy},
		{"a letter dropped", enText, "returned Mr Bennets vist", -1, "returned Mr. Bennet’s visit", HowFuzzy},
		{"elided middle", enText, "If I can but see one … nothing to wish for", -1,
			"If I can but see one of my daughters happily settled at Netherfield,” said Mrs. Bennet to her husband, “and all the others equally well married, I shall have nothing to wish for", HowElided},
		{"nearest of two by offset", enText, "wore a blue coat", len(enText) - 10, "wore a blue coat", HowExact},
		{"absent", enText, "Mr. Darcy rode a grey mare to Pemberley", -1, "", HowMissing},
		{"only punctuation", enText, "“…”", -1, "", HowMissing},
		{"empty", enText, "   ", -1, "", HowMissing},
		{"invalid UTF-8", enText, "blue \xff coat", -1, "", HowMissing},

		{"traditional quoted in simplified", zhText, "因贱荆去世，都中家岳母念及小女无人依傍教育", -1,
			"因賤荊去世，都中家岳母念及小女無人依傍教育", HowFolded},
		{"simplified, other punctuation", zhText, "雨村一面打恭, 谢不释口", -1, "雨村一面打恭，謝不釋口", HowFolded},
		{"Chinese with a character changed", zhText, "不知令亲大人现任何职", -1, "不知令親大人現居何職", HowFuzzy},
		{"Chinese after an emoji", zhText, "林黛玉抛父进京", -1, "林黛玉拋父進京", HowFolded},
		{"Chinese absent", zhText, "贾宝玉初试云雨情", -1, "", HowMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLocator(tt.text, folder)
			s, e, how, ok := l.Locate(tt.quote, tt.near)
			if tt.want == "" {
				if ok {
					t.Fatalf("found %q (%s), want nothing", tt.text[s:e], how)
				}
				return
			}
			if !ok {
				t.Fatalf("not found, want %q", tt.want)
			}
			if got := tt.text[s:e]; got != tt.want || how != tt.how {
				t.Errorf("got %q (%s), want %q (%s)", got, how, tt.want, tt.how)
			}
		})
	}
}

func TestLocateNearPicksTheLaterOccurrence(t *testing.T) {
	l := NewLocator(enText, folder)
	first := strings.Index(enText, "wore a blue coat")
	last := strings.LastIndex(enText, "wore a blue coat")
	if s, _, _, _ := l.Locate("wore a blue coat", -1); s != first {
		t.Errorf("without a hint: %d, want the first %d", s, first)
	}
	if s, _, _, _ := l.Locate("WORE A BLUE COAT", last); s != last {
		t.Errorf("folded with a hint: %d, want the last %d", s, last)
	}
}

// A long text and a long loose quote stay fast enough for a gate: the
// approximate match is bounded by maxQuoteKey.
func TestLocateLongQuote(t *testing.T) {
	text := strings.Repeat("The rain fell on Longbourn and nobody went out. ", 400) + enText
	quote := strings.Repeat("x", 10) + strings.Repeat("If I can but see one of my daughters happily settled at Netherfield ", 4)
	l := NewLocator(text, folder)
	if _, _, _, ok := l.Locate(quote, -1); ok {
		t.Errorf("a quote matching nothing was found")
	}
}
