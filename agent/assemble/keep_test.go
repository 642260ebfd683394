package assemble

import (
	"reflect"
	"testing"

	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
)

// A text's record reads back as it was written, Chinese and astral text
// included; a record of another format (the JSON of format 3) or a
// damaged one is refused, so that the text is analysed again.
func TestTextRecordRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    derived
	}{
		{"passages only", derived{passages: []textsearch.Passage{{Start: 0, End: 12}, {Start: 14, End: 3000}}}},
		{"no passages", derived{}},
		{"summarised", derived{summarized: true, passages: []textsearch.Passage{{Start: 3, End: 90}},
			summary: summarize.Summary{L0: "寶玉笑道：「𝄞妹妹」", L1: "賈寶玉與林黛玉。\n\nElizabeth walked.", L0Tokens: 7, L1Tokens: 19, Method: summarize.Method}}},
		{"summarised, empty levels", derived{summarized: true, summary: summarize.Summary{Method: "model"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := recordOf(&tc.d)
			got, ok := derivedOf(rec)
			if !ok {
				t.Fatalf("record %q not read back", rec)
			}
			want := tc.d
			want.kept = true
			if want.passages == nil {
				want.passages = []textsearch.Passage{}
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("read back %+v\nwant %+v", *got, want)
			}
			for cut := range len(rec) {
				if _, ok := derivedOf(rec[:cut]); ok {
					t.Fatalf("a record cut at %d of %d bytes was read", cut, len(rec))
				}
			}
			if _, ok := derivedOf(append(rec[:len(rec):len(rec)], 0)); ok {
				t.Fatal("a record with a byte too many was read")
			}
		})
	}
	if _, ok := derivedOf([]byte(`{"p":[0,12],"s":true,"l0":"x"}`)); ok {
		t.Fatal("a format 3 (JSON) record was read")
	}
}
