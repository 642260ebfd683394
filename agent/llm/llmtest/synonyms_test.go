package llmtest

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestEmbedWithSynonyms(t *testing.T) {
	syn := map[string]string{"grief": "sorrow", "Weeping": "tears", "哭泣": "流淚", "怒": "憤"}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"her grief at the parting", "her sorrow at the parting", true},
		{"GRIEF, and weeping", "sorrow and tears", true},
		{"黛玉哭泣", "黛玉流淚", true},
		{"寶玉大怒", "寶玉大憤", true},
		{"griefs", "sorrows", false}, // whole words only
		{"her grief", "her joy", false},
	} {
		va, vb := EmbedWith(tc.a, 64, syn), EmbedWith(tc.b, 64, syn)
		if slices.Equal(va, vb) != tc.same {
			t.Errorf("%q vs %q: same=%v, want %v", tc.a, tc.b, !tc.same, tc.same)
		}
	}
	if !slices.Equal(EmbedWith("grief", 16, nil), Embed("grief", 16)) {
		t.Error("no synonyms should be Embed")
	}
	// The replacement does not join the words around a phrase.
	if slices.Equal(EmbedWith("甲哭泣乙", 64, syn), EmbedWith("甲哭泣", 64, syn)) {
		t.Error("the character after a phrase was lost")
	}
}

func TestServerSynonyms(t *testing.T) {
	srv := New(t, Script{Dimensions: 48, Synonyms: map[string]string{"grief": "sorrow"}})
	_, b, err := post(t, srv.URL+"/embeddings", map[string]any{"model": "e", "input": []string{"deep grief", "deep sorrow", "deep joy"}})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Data) != 3 {
		t.Fatalf("%s %v", b, err)
	}
	if !slices.Equal(r.Data[0].Embedding, r.Data[1].Embedding) || slices.Equal(r.Data[0].Embedding, r.Data[2].Embedding) {
		t.Errorf("synonyms not applied by the server: %v", r.Data)
	}
	if !slices.Equal(r.Data[1].Embedding, Embed("deep sorrow", 48)) {
		t.Error("the server's vector is not EmbedWith's")
	}
	// The script file form takes the key.
	var sc Script
	if err := json.Unmarshal([]byte(`{"synonyms": {"a": "b"}}`), &sc); err != nil || sc.Synonyms["a"] != "b" {
		t.Errorf("script file: %+v %v", sc, err)
	}
}
