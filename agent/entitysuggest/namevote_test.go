package entitysuggest

import (
	"strings"
	"testing"
)

// TestPartNameVote holds that a bare name of one word left apart because
// two full names hold it ("Nicholas" of Nicholas Rostov and of Nicholas
// Bolkonski) joins the one whose other part the paragraph, or else the
// chapter, names, when four uses of five vote for it; and stays apart
// when the text names both families as much. A title before a family
// name ("Countess Rostova", the mother) is never asked: the text near it
// names her children. Chinese names are not made of words apart, so the
// rule has no Chinese case.
func TestPartNameVote(t *testing.T) {
	// Book builds chapters: the two men introduced by full name, then
	// chapters of bare uses beside the family name of one or the other.
	book := func(rostov, bolkonski int) []Chapter {
		chs := []Chapter{{Number: 1, Text: "Chapter I\n\n" +
			strings.Repeat("Nicholas Rostov rode to the house. Prince Nicholas Bolkonski stood at the door. Count Rostov bowed.\n\n", 3) +
			strings.Repeat("Then Nicholas Bolkonski spoke to his daughter.\n\n", 2)}}
		for i := range rostov {
			chs = append(chs, Chapter{Number: len(chs) + 1, Text: "Chapter\n\n" +
				strings.Repeat("The hussar Rostov galloped on. Later Nicholas laughed and sang.\n\n", 2) +
				strings.Repeat("Nicholas looked at the horses.\n\n", 2+i%2)})
		}
		for range bolkonski {
			chs = append(chs, Chapter{Number: len(chs) + 1, Text: "Chapter\n\n" +
				strings.Repeat("The old Prince Bolkonski walked. Then Nicholas frowned at the plans.\n\n", 2) +
				"Nicholas wrote a letter.\n\n"})
		}
		return chs
	}
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
	}{
		{
			name:     "the bare given name is used where one family is named",
			chapters: book(12, 1),
			together: [][]string{{"Nicholas Rostov", "Nicholas", "Rostov"}},
			apart:    [][2]string{{"Nicholas", "Nicholas Bolkonski"}},
		},
		{
			name:     "the bare given name is used as much of both",
			chapters: book(6, 6),
			apart:    [][2]string{{"Nicholas", "Nicholas Bolkonski"}, {"Nicholas", "Nicholas Rostov"}},
		},
		{
			name:     "a title before a family name is not asked",
			chapters: countess(),
			apart:    [][2]string{{"Countess Rostova", "Natasha Rostova"}, {"Countess Rostova", "Vera Rostova"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, _ := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				if a := entryOf(sugg, ap[0]); a != nil && hasName(a, ap[1]) {
					t.Errorf("%q and %q in one entry: %v", ap[0], ap[1], a.Names())
				}
			}
		})
	}
}

// countess is a book where the mother, Countess Rostova, is spoken of
// beside her daughter Natasha Rostova, who is mostly called Natasha.
func countess() []Chapter {
	chs := []Chapter{{Number: 1, Text: "Chapter I\n\n" +
		strings.Repeat("Natasha Rostova ran in. Her sister Vera Rostova sat down.\n\n", 3)}}
	for range 8 {
		chs = append(chs, Chapter{Number: len(chs) + 1, Text: "Chapter\n\n" +
			strings.Repeat("Countess Rostova smiled at Natasha, and then Natasha laughed.\n\n", 2) +
			"Then Natasha sang, and Vera frowned.\n\n"})
	}
	return chs
}
