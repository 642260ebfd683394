package llmtest

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"strings"
	"time"
	"unicode"
)

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var eb struct {
		Model          string          `json:"model"`
		Input          json.RawMessage `json:"input"`
		Dimensions     int             `json:"dimensions"`
		EncodingFormat string          `json:"encoding_format"`
	}
	if err := json.Unmarshal(body, &eb); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "scripted stand-in: the request is not JSON: "+err.Error())
		return
	}
	var inputs []string
	var one string
	if json.Unmarshal(eb.Input, &one) == nil {
		inputs = []string{one}
	} else if err := json.Unmarshal(eb.Input, &inputs); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "scripted stand-in: input must be a string or an array of strings")
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Endpoint: "embeddings", Model: eb.Model}
	for _, in := range inputs {
		req.Messages = append(req.Messages, Message{Role: "input", Content: in})
	}
	reply, fault, sc, rec := s.record(req, func(rep *Reply) bool { return rep.Match != nil && rep.Match.accepts(&req, "embeddings", false) })
	defer s.notify(rec)
	latency := time.Duration(sc.Latency)
	if reply.Latency != nil {
		latency = time.Duration(*reply.Latency)
	}
	if !s.wait(r.Context(), latency) {
		return
	}
	if s.writeFault(w, r, reply, fault) {
		return
	}
	switch fault {
	case FaultBadJSON:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object": "list", "data": [{"embedding": [0.1, `))
		return
	case FaultCut, FaultTrunc, FaultStall:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "4096")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"object": "list", "data": [`))
		if fault == FaultStall {
			s.hang(r.Context())
			return
		}
		abort(w)
	}
	dim := eb.Dimensions
	if dim <= 0 {
		dim = sc.Dimensions
	}
	if dim <= 0 {
		dim = 64
	}
	data := make([]map[string]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		v := EmbedWith(in, dim, sc.Synonyms)
		tokens += countTokens(eb.Model, in)
		var emb any = v
		if eb.EncodingFormat == "base64" {
			buf := make([]byte, 4*len(v))
			for j, x := range v {
				binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(x))
			}
			emb = base64.StdEncoding.EncodeToString(buf)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
	}
	model := eb.Model
	if model == "" {
		model = StandInModel
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": model,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// Embed is the server's deterministic embedding: a hashed bag of words
// (letters and digits lower-cased into words; each CJK character a word of
// its own), each word adding ±1 at a hashed index, scaled to unit length.
// Texts sharing words are close; the same text always gives the same
// vector. Tests may call it to know what the server will answer.
func Embed(text string, dim int) []float32 {
	v := make([]float32, dim)
	add := func(word string) {
		h := fnv.New64a()
		h.Write([]byte(word))
		x := h.Sum64()
		sign := float32(1)
		if x>>63 == 1 {
			sign = -1
		}
		v[x%uint64(dim)] += sign
	}
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			add(word.String())
			word.Reset()
		}
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flush()
			add(string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm > 0 {
		n := float32(math.Sqrt(norm))
		for i := range v {
			v[i] /= n
		}
	}
	return v
}
