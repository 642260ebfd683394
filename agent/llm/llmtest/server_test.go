package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url string, body any) (*http.Response, []byte, error) {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", strings.NewReader(string(data)))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func chatBodyFor(user string, stream bool) map[string]any {
	return map[string]any{"model": "m", "stream": stream, "stream_options": map[string]any{"include_usage": true},
		"messages": []any{map[string]any{"role": "user", "content": user}}}
}

func content(t *testing.T, b []byte) string {
	t.Helper()
	var r struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Choices) != 1 {
		t.Fatalf("reply %s: %v", b, err)
	}
	return r.Choices[0].Message.Content
}

func TestMatchingOrderAndPredicates(t *testing.T) {
	yes := true
	srv := New(t, Script{
		Replies: []Reply{
			{Match: &Match{Contains: "Darcy"}, Content: "darcy-1"},
			{Content: "first-any"},
			{Match: &Match{Contains: "Darcy"}, Content: "darcy-forever", Times: -1},
			{Match: &Match{Stream: &yes}, Content: "never: the stream flag does not match"},
			{When: func(r *Request) bool { return strings.HasPrefix(r.LastUser(), "go") }, Content: "predicate", Times: 2},
		},
		Default: &Reply{Content: "default"},
	})
	url := srv.URL + "/chat/completions"
	want := []struct{ user, reply string }{
		{"hello", "first-any"},  // the Darcy reply does not match; the next does
		{"Mr Darcy", "darcy-1"}, // the first Darcy reply, still unused
		{"Mr Darcy", "darcy-forever"},
		{"Darcy again", "darcy-forever"},
		{"go on", "predicate"},
		{"go on", "predicate"},
		{"go on", "default"}, // the predicate reply is used up
		{"hello", "default"},
	}
	for i, w := range want {
		_, b, err := post(t, url, chatBodyFor(w.user, false))
		if err != nil {
			t.Fatal(err)
		}
		if got := content(t, b); got != w.reply {
			t.Errorf("request %d (%q) got %q, want %q", i, w.user, got, w.reply)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != len(want) || reqs[1].LastUser() != "Mr Darcy" || reqs[0].Seq != 1 || reqs[7].Seq != 8 {
		t.Errorf("recorded %d requests: %+v", len(reqs), reqs[:2])
	}
}

func TestEchoDefault(t *testing.T) {
	srv := New(t, Script{})
	_, b, err := post(t, srv.URL+"/chat/completions", chatBodyFor("寫 第一章  please", false))
	if err != nil {
		t.Fatal(err)
	}
	c := content(t, b)
	if !strings.HasPrefix(c, StandInPrefix) || !strings.Contains(c, "not from a model") || !strings.Contains(c, "寫 第一章 please") {
		t.Errorf("echo = %q", c)
	}
	_, b2, _ := post(t, srv.URL+"/chat/completions", chatBodyFor("寫 第一章  please", false))
	if content(t, b2) != c {
		t.Error("the echo is not deterministic")
	}
	// A structured-output request gets the smallest value the schema accepts.
	body := chatBodyFor("check", false)
	body["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "v", "schema": map[string]any{
		"type": "object", "required": []any{"decision", "issues", "score"},
		"properties": map[string]any{
			"decision": map[string]any{"type": "string", "enum": []any{"approve", "flag"}},
			"issues":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1},
			"score":    map[string]any{"type": "integer", "minimum": 1},
		}}}}
	_, b, _ = post(t, srv.URL+"/chat/completions", body)
	var v map[string]any
	if err := json.Unmarshal([]byte(content(t, b)), &v); err != nil {
		t.Fatal(err)
	}
	if v["decision"] != "approve" || len(v["issues"].([]any)) != 1 || v["score"] != 1.0 {
		t.Errorf("schema echo = %v", v)
	}
}

// sse reads a stream's data lines.
func sse(t *testing.T, url string, body any) (events []string, err error) {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			events = append(events, d)
		}
	}
	return events, sc.Err()
}

func TestStreamFaultsOnTheWire(t *testing.T) {
	srv := New(t, Script{Replies: []Reply{
		{Content: "one two three four five six seven eight nine ten"},
		{Content: "one two three four five six seven eight nine ten", Fault: FaultCut, CutAfter: 3},
		{Content: "one two three four five six seven eight nine ten", Fault: FaultTrunc, CutAfter: 3},
		{Content: "one two three", Fault: FaultBadJSON, CutAfter: 2},
	}})
	url := srv.URL + "/chat/completions"
	ev, err := sse(t, url, chatBodyFor("x", true))
	if err != nil || ev[len(ev)-1] != "[DONE]" || !strings.Contains(ev[len(ev)-2], `"usage"`) || !strings.Contains(ev[len(ev)-3], `"finish_reason":"stop"`) {
		t.Fatalf("normal stream: %v %v", ev, err)
	}
	ev, err = sse(t, url, chatBodyFor("x", true))
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(ev) != 3 {
		t.Errorf("cut: %d events, err %v; want 3 and an unexpected EOF", len(ev), err)
	}
	ev, err = sse(t, url, chatBodyFor("x", true))
	if err != nil || len(ev) != 3 || slices.Contains(ev, "[DONE]") || strings.Contains(strings.Join(ev, ""), `"finish_reason":"stop"`) {
		t.Errorf("truncate: %v %v", ev, err)
	}
	ev, _ = sse(t, url, chatBodyFor("x", true))
	var v any
	if len(ev) != 3 || json.Unmarshal([]byte(ev[2]), &v) == nil {
		t.Errorf("malformed: %v", ev)
	}
}

func TestErrorFaults(t *testing.T) {
	srv := New(t, Script{Replies: []Reply{
		{Fault: Fault429, RetryAfter: "3"}, {Fault: Fault500}, {Fault: Fault401}, {Fault: FaultBadJSON}, {Fault: FaultSchema},
		{Fault: Fault503, RetryAfter: "4"}, {Fault: Fault400},
	}})
	url := srv.URL + "/chat/completions"
	resp, b, _ := post(t, url, chatBodyFor("x", false))
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(string(b), `"error"`) {
		t.Errorf("429: %d %v %s", resp.StatusCode, resp.Header, b)
	}
	for _, code := range []int{500, 401} {
		if resp, _, _ := post(t, url, chatBodyFor("x", false)); resp.StatusCode != code {
			t.Errorf("got %d, want %d", resp.StatusCode, code)
		}
	}
	resp, b, _ = post(t, url, chatBodyFor("x", false))
	var v any
	if resp.StatusCode != 200 || json.Unmarshal(b, &v) == nil {
		t.Errorf("malformed: %d %s", resp.StatusCode, b)
	}
	_, b, _ = post(t, url, chatBodyFor("x", false))
	if c := content(t, b); !strings.HasPrefix(c, "[") {
		t.Errorf("wrong-schema content %q", c)
	}
	got := []Fault{}
	for _, r := range srv.Requests() {
		got = append(got, r.Fault)
	}
	resp, _, _ = post(t, url, chatBodyFor("x", false))
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "4" {
		t.Errorf("503: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _, _ = post(t, url, chatBodyFor("x", false)); resp.StatusCode != 400 {
		t.Errorf("400: %d", resp.StatusCode)
	}
	got = got[:0]
	for _, r := range srv.Requests() {
		got = append(got, r.Fault)
	}
	if !slices.Equal(got, []Fault{Fault429, Fault500, Fault401, FaultBadJSON, FaultSchema, Fault503, Fault400}) {
		t.Errorf("recorded faults %v", got)
	}
}

func TestHangReleasedByClientAndClose(t *testing.T) {
	srv, err := Start("", Script{Replies: []Reply{{Fault: FaultHang, Times: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	data, _ := json.Marshal(chatBodyFor("x", false))
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/chat/completions", strings.NewReader(string(data)))
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: err = %v", err)
	}
	// A request still hanging when the server closes is released.
	done := make(chan error, 1)
	go func() {
		_, _, err := post(t, srv.URL+"/chat/completions", chatBodyFor("x", false))
		done <- err
	}()
	for srv.Count() < 2 {
		time.Sleep(time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hangs on a hanging request")
	}
	<-done
}

func TestFaultRateSeeded(t *testing.T) {
	run := func(seed uint64) []Fault {
		srv := New(t, Script{FaultRate: 0.3, Seed: seed, Faults: []Fault{Fault500, Fault429}})
		var out []Fault
		for range 100 {
			post(t, srv.URL+"/chat/completions", chatBodyFor("x", false))
		}
		for _, r := range srv.Requests() {
			out = append(out, r.Fault)
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave different faults")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds gave the same faults")
	}
	n := 0
	for _, f := range a {
		if f != "" {
			n++
		}
	}
	if n < 15 || n > 45 {
		t.Errorf("%d faults in 100 at rate 0.3", n)
	}
}

func TestEmbeddings(t *testing.T) {
	srv := New(t, Script{Dimensions: 32})
	_, b, err := post(t, srv.URL+"/embeddings", map[string]any{"model": "e", "input": []string{"Elizabeth Bennet", "elizabeth BENNET!"}})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Data) != 2 || len(r.Data[0].Embedding) != 32 {
		t.Fatalf("%s %v", b, err)
	}
	if !slices.Equal(r.Data[0].Embedding, r.Data[1].Embedding) {
		t.Error("case and punctuation should not change the bag of words")
	}
	cos := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	same, near, far := Embed("林黛玉進賈府", 256), Embed("林黛玉離開賈府", 256), Embed("Pemberley is a fine estate", 256)
	if c := cos(same, same); math.Abs(c-1) > 1e-5 {
		t.Errorf("not unit length: %v", c)
	}
	if cos(same, near) <= cos(same, far) {
		t.Errorf("shared characters should be closer: near %v far %v", cos(same, near), cos(same, far))
	}
	if v := Embed("", 8); slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
		t.Errorf("empty text: %v", v)
	}
}

func TestModelsAndUnknownPath(t *testing.T) {
	srv := New(t, Script{Replies: []Reply{{Match: &Match{Model: "gpt-test"}}}})
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), StandInModel) || !strings.Contains(string(b), "gpt-test") {
		t.Errorf("models: %s", b)
	}
	resp, err = http.Get(srv.URL + "/nothing")
	if err != nil || resp.StatusCode != 404 {
		t.Errorf("unknown path: %v %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	r, _, _ := post(t, srv.URL+"/chat/completions", "not an object")
	if r.StatusCode != 400 {
		t.Errorf("bad JSON body: %d", r.StatusCode)
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0", "example.com:80"} {
		if s, err := Start(addr, Script{}); err == nil {
			s.Close()
			t.Errorf("%s: accepted", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		s, err := Start(addr, Script{})
		if err != nil {
			t.Errorf("%s: %v", addr, err)
			continue
		}
		s.Close()
	}
}

func TestLoadScript(t *testing.T) {
	s, err := LoadScript(filepath.Join("testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Replies) != 6 || s.Latency != Duration(50*time.Millisecond) || s.Replies[1].Times != -1 || string(s.Replies[1].JSON) == "" {
		t.Errorf("example script: %+v", s)
	}
	f, err := LoadScript(filepath.Join("testdata", "faults.json"))
	if err != nil || f.FaultRate != 0.3 || len(f.Faults) != 6 || f.Default == nil || !f.Default.Echo {
		t.Errorf("faults script: %+v %v", f, err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"unknown-key":  `{"replys": []}`,
		"bad-fault":    `{"replies": [{"fault": "explode"}]}`,
		"bad-duration": `{"latency": "soon"}`,
		"bad-rate":     `{"fault_rate": 2}`,
		"bad-endpoint": `{"replies": [{"match": {"endpoint": "images"}}]}`,
		"not-json":     `replies: []`,
	} {
		p := filepath.Join(dir, name+".json")
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := LoadScript(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Milliseconds as a number.
	p := filepath.Join(dir, "ms.json")
	os.WriteFile(p, []byte(`{"latency": 25}`), 0o644)
	if s, err := LoadScript(p); err != nil || s.Latency != Duration(25*time.Millisecond) {
		t.Errorf("latency 25: %v %v", s.Latency, err)
	}
}

func TestKeepRequests(t *testing.T) {
	srv := New(t, Script{})
	srv.KeepRequests(3)
	var seen []int
	srv.OnRequest(func(r Request) { seen = append(seen, r.Seq) })
	for range 5 {
		post(t, srv.URL+"/chat/completions", chatBodyFor("x", false))
	}
	reqs := srv.Requests()
	if srv.Count() != 5 || len(reqs) != 3 || reqs[0].Seq != 3 || reqs[2].Seq != 5 {
		t.Errorf("count %d, kept %d from seq %d", srv.Count(), len(reqs), reqs[0].Seq)
	}
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5}) {
		t.Errorf("notified %v", seen)
	}
}
