// Package llm is FlowCabal's client for OpenAI-compatible endpoints: chat
// completions (streaming or not), structured output checked against a JSON
// schema, tool calls for the agent loop, and embeddings.
//
// The client retries transient failures itself (429, 5xx, timeouts, cut
// streams, malformed replies) with exponential backoff that honours
// Retry-After, then fails with an [*Error] that names the endpoint and the
// last error. The API key never appears in an error, a log line or a
// formatted [Config].
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// Options tune a [Client]. The zero value is ready for production.
type Options struct {
	// Getenv looks up the key's environment variable; os.Getenv when nil.
	Getenv func(string) string
	// HTTPClient carries the requests; a dedicated client when nil.
	HTTPClient *http.Client
	// Retry is the retry policy; the zero value is DefaultRetryPolicy.
	Retry RetryPolicy
	// Recorder receives one Usage per call (the store's agent log).
	Recorder Recorder
	// Logger receives retries and failures; nothing is logged when nil.
	Logger *slog.Logger
	// OnRetry, when set, is told before each wait (progress displays).
	OnRetry func(RetryEvent)
	// Sleep waits between attempts; tests replace it to assert the
	// scheduled delays without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) for jitter.
	Rand func() float64
}

// Client talks to one configured endpoint. It is safe for concurrent use.
type Client struct {
	cfg     Config
	key     Secret
	opts    Options
	ownHTTP bool
	policy  RetryPolicy
	log     *slog.Logger

	chat   openai.ChatCompletionService
	embed  openai.EmbeddingService
	models openai.ModelService
	// raw sends streaming requests whose chunks streamOnce decodes itself
	// (see streamChunk).
	raw openai.Client
}

// New returns a client for cfg. It fails when cfg lacks an endpoint or the
// key's environment variable is named but unset.
func New(cfg Config, opts Options) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, &Error{Op: "configure", Config: cfg.Name, Endpoint: cfg.Endpoint(), Kind: KindConfig, Err: err}
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	key, err := cfg.resolveKey(opts.Getenv)
	if err != nil {
		return nil, &Error{Op: "configure", Config: cfg.Name, Endpoint: cfg.Endpoint(), Kind: KindConfig, Err: err}
	}
	if host, remote := cleartextToRemote(cfg.BaseURL); remote && !key.Empty() {
		return nil, &Error{Op: "configure", Config: cfg.Name, Endpoint: cfg.Endpoint(), Kind: KindConfig,
			Err: fmt.Errorf("refusing to send the API key over plain http to %s; use https", host)}
	}
	if !key.Empty() {
		if err := keyAllowed(cfg.Name, cfg.BaseURL, opts.Getenv); err != nil {
			return nil, &Error{Op: "configure", Config: cfg.Name, Endpoint: cfg.Endpoint(), Kind: KindConfig, Err: err}
		}
	}
	ownHTTP := opts.HTTPClient == nil
	if ownHTTP {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// A run sends several nodes to one endpoint at once; the default
		// of 2 idle connections per host would redial for each.
		tr.MaxIdleConnsPerHost = 32
		opts.HTTPClient = &http.Client{Transport: tr}
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepContext
	}
	if opts.Rand == nil {
		opts.Rand = defaultRand
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Client{cfg: cfg, key: key, opts: opts, ownHTTP: ownHTTP, policy: opts.Retry.withDefaults(),
		log: log.With("llm", cfg.Name, "endpoint", cfg.Endpoint())}
	// The services are built directly rather than through openai.NewClient,
	// which would read OPENAI_API_KEY and OPENAI_BASE_URL from the
	// environment behind the configuration's back. The SDK's own retries
	// are off: ours follow the project's policy and report each wait.
	ro := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/") + "/"),
		option.WithHTTPClient(opts.HTTPClient),
		option.WithMaxRetries(0),
	}
	if !key.Empty() {
		ro = append(ro, option.WithAPIKey(key.Reveal()))
	}
	c.chat = openai.NewChatCompletionService(ro...)
	c.embed = openai.NewEmbeddingService(ro...)
	c.models = openai.NewModelService(ro...)
	c.raw = openai.Client{Options: ro}
	return c, nil
}

// Close releases the idle connections of the HTTP client New made (not
// those of one passed in Options). The client stays usable.
func (c *Client) Close() {
	if c.ownHTTP {
		c.opts.HTTPClient.CloseIdleConnections()
	}
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

// A Role is the author of a chat message.
type Role string

// The message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one chat message.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID answers which call, for a RoleTool message.
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// System returns a system message.
func System(text string) Message { return Message{Role: RoleSystem, Content: text} }

// User returns a user message.
func User(text string) Message { return Message{Role: RoleUser, Content: text} }

// Assistant returns an assistant message.
func Assistant(text string) Message { return Message{Role: RoleAssistant, Content: text} }

// ToolResult returns the message that answers the tool call id.
func ToolResult(id, content string) Message {
	return Message{Role: RoleTool, Content: content, ToolCallID: id}
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters map[string]any
}

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text, as the model wrote it: validate before use
}

// Schema asks for structured output: the reply must be JSON matching it.
type Schema struct {
	Name        string // a-z, A-Z, 0-9, _ and -
	Description string
	Schema      map[string]any
	// Strict asks the endpoint to enforce the schema; the client checks
	// the reply against it either way.
	Strict bool
}

// Request is one chat call.
type Request struct {
	Messages []Message
	Tools    []Tool
	// ToolChoice is "auto" (the default when tools are given), "none" or
	// "required".
	ToolChoice string
	Schema     *Schema
	// Temperature and MaxTokens override the configuration's.
	Temperature *float64
	MaxTokens   int

	// Role and Node label the call in the usage log ("writer", "role-c";
	// the node's name).
	Role string
	Node string
}

// Tokens counts a call's tokens as the endpoint reported them.
type Tokens struct {
	In  int // prompt
	Out int // completion
}

// Response is a chat call's result.
type Response struct {
	Content string
	// Refusal is the model's explanation when it declines to answer
	// (structured outputs); Content is then empty.
	Refusal      string
	ToolCalls    []ToolCall
	FinishReason string
	Model        string
	Tokens       Tokens
	Attempts     int
	Duration     time.Duration
	// JSON is Content, checked against the request's Schema, when one was
	// given.
	JSON json.RawMessage
}

// Message returns the assistant message to append to the conversation
// before sending tool results back.
func (r *Response) Message() Message {
	return Message{Role: RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls}
}

// Delta is one piece of a streamed reply.
type Delta struct {
	// Content is the text that follows what came before.
	Content string
	// Restart says that the stream was cut and is being retried: discard
	// the text delivered so far; the new attempt starts from the beginning.
	Restart bool
}

// Chat sends req and waits for the whole reply.
func (c *Client) Chat(ctx context.Context, req Request) (*Response, error) {
	params, schema, err := c.params(req)
	if err != nil {
		return nil, c.fail(ctx, "chat", req, nil, &Error{Kind: KindConfig, Err: err})
	}
	start := time.Now()
	var resp *Response
	attempts, ferr := c.retry(ctx, "chat", func(ctx context.Context, _ int) error {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errAttemptTimeout)
		defer cancel()
		cc, err := c.chat.New(actx, params)
		if err != nil {
			return withCause(actx, err)
		}
		if len(cc.Choices) == 0 {
			return errMalformed("reply has no choices")
		}
		ch := cc.Choices[0]
		r := &Response{Content: ch.Message.Content, Refusal: ch.Message.Refusal, FinishReason: ch.FinishReason, Model: cc.Model,
			Tokens: Tokens{In: int(cc.Usage.PromptTokens), Out: int(cc.Usage.CompletionTokens)}}
		for _, tc := range ch.Message.ToolCalls {
			r.ToolCalls = append(r.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		resp = r
		return nil
	})
	return c.finish(ctx, "chat", req, schema, resp, attempts, start, ferr)
}

// Stream sends req and calls fn with each piece of the reply as it
// arrives. fn returning an error stops the call with that error. A stream
// cut short is retried like any transient failure; fn then first receives
// a Delta with Restart set.
func (c *Client) Stream(ctx context.Context, req Request, fn func(Delta) error) (*Response, error) {
	params, schema, err := c.params(req)
	if err != nil {
		return nil, c.fail(ctx, "stream", req, nil, &Error{Kind: KindConfig, Err: err})
	}
	params.StreamOptions.IncludeUsage = openai.Bool(true)
	start := time.Now()
	var resp *Response
	delivered := false
	attempts, ferr := c.retry(ctx, "stream", func(ctx context.Context, n int) error {
		if delivered {
			if err := fn(Delta{Restart: true}); err != nil {
				return &callbackError{err}
			}
			delivered = false
		}
		r, err := c.streamOnce(ctx, params, func(d Delta) error {
			delivered = true
			return fn(d)
		})
		if err != nil {
			return err
		}
		resp = r
		return nil
	})
	return c.finish(ctx, "stream", req, schema, resp, attempts, start, ferr)
}

// streamOnce is one streaming attempt. Its timeout is the longest silence
// allowed between chunks, so a long reply is not cut but a stalled one is.
func (c *Client) streamOnce(ctx context.Context, params openai.ChatCompletionNewParams, fn func(Delta) error) (*Response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(c.cfg.Timeout, func() { cancel(errAttemptTimeout) })
	defer watchdog.Stop()

	// The request goes through the SDK (auth, body, API errors, SSE
	// framing) but the chunks are decoded into a small struct: the SDK's
	// generic decoder costs ~10 µs a chunk, most of a stream's CPU.
	var raw *http.Response
	err := c.raw.Post(actx, "chat/completions", params, &raw, option.WithJSONSet("stream", true))
	stream := ssestream.NewStream[streamChunk](ssestream.NewDecoder(raw), err)
	defer stream.Close()
	r := &Response{}
	var content, refusal strings.Builder
	calls := map[int64]*ToolCall{}
	var order []int64
	for stream.Next() {
		watchdog.Reset(c.cfg.Timeout)
		chunk := stream.Current()
		if chunk.Model != "" {
			r.Model = chunk.Model
		}
		if u := chunk.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
			r.Tokens = Tokens{In: int(u.PromptTokens), Out: int(u.CompletionTokens)}
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			if ch.FinishReason != "" {
				r.FinishReason = ch.FinishReason
			}
			for _, tc := range ch.Delta.ToolCalls {
				call, ok := calls[tc.Index]
				if !ok {
					call = &ToolCall{}
					calls[tc.Index] = call
					order = append(order, tc.Index)
				}
				if tc.ID != "" {
					call.ID = tc.ID
				}
				call.Name += tc.Function.Name
				call.Arguments += tc.Function.Arguments
			}
			refusal.WriteString(ch.Delta.Refusal)
			if ch.Delta.Content != "" {
				content.WriteString(ch.Delta.Content)
				if err := fn(Delta{Content: ch.Delta.Content}); err != nil {
					return nil, &callbackError{err}
				}
			}
		}
	}
	if err := stream.Err(); err != nil {
		return nil, withCause(actx, err)
	}
	if r.FinishReason == "" {
		// Ended without finishing: stopped by the watchdog or the
		// caller, or the endpoint closed the stream early.
		if err := context.Cause(actx); err != nil {
			return nil, err
		}
		return nil, errStreamCut
	}
	r.Content = content.String()
	r.Refusal = refusal.String()
	for _, i := range order {
		r.ToolCalls = append(r.ToolCalls, *calls[i])
	}
	return r, nil
}

// streamChunk is the part of a chat.completion.chunk the client reads.
type streamChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content   string `json:"content"`
			Refusal   string `json:"refusal"`
			ToolCalls []struct {
				Index    int64  `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// finish checks structured output, records usage and shapes the error.
func (c *Client) finish(ctx context.Context, op string, req Request, schema *compiledSchema, resp *Response, attempts int, start time.Time, ferr *Error) (*Response, error) {
	if ferr == nil && schema != nil && len(resp.ToolCalls) == 0 {
		raw, err := schema.check(resp.Content)
		if resp.Content == "" && resp.Refusal != "" {
			err = fmt.Errorf("%w: the model refused: %s", ErrSchema, resp.Refusal)
		}
		if err != nil {
			ferr = &Error{Kind: KindSchema, Content: resp.Content, Err: err}
		} else {
			resp.JSON = raw
		}
	}
	if resp != nil {
		resp.Attempts = attempts
		resp.Duration = time.Since(start)
	}
	if ferr != nil {
		ferr.Attempts = attempts
		return resp, c.fail(ctx, op, req, resp, ferr)
	}
	c.log.Debug("llm call", "op", op, "role", req.Role, "node", req.Node, "tokens_in", resp.Tokens.In,
		"tokens_out", resp.Tokens.Out, "attempts", attempts, "duration", resp.Duration, "finish", resp.FinishReason)
	c.record(ctx, op, req, resp.Tokens, attempts, resp.Duration, "ok", "")
	return resp, nil
}

// fail completes e with the call's identity, logs and records it.
func (c *Client) fail(ctx context.Context, op string, req Request, resp *Response, e *Error) error {
	e.Op, e.Config, e.Endpoint = op, c.cfg.Name, c.cfg.Endpoint()
	e.Err = scrub(e.Err, c.key)
	e.Retryable = e.Kind.transient()
	var tok Tokens
	var d time.Duration
	if resp != nil {
		tok, d = resp.Tokens, resp.Duration
	}
	c.log.Warn("llm call failed", "op", op, "role", req.Role, "node", req.Node, "kind", e.Kind.String(), "attempts", e.Attempts, "err", e.Error())
	c.record(ctx, op, req, tok, e.Attempts, d, e.Kind.String(), e.Error())
	return e
}

func (c *Client) record(ctx context.Context, op string, req Request, tok Tokens, attempts int, d time.Duration, status, errText string) {
	if c.opts.Recorder == nil {
		return
	}
	c.opts.Recorder.RecordUsage(ctx, Usage{
		Op: op, Config: c.cfg.Name, Role: req.Role, Node: req.Node, Model: c.cfg.Model,
		TokensIn: tok.In, TokensOut: tok.Out, Duration: d, Attempts: attempts, Status: status, Error: errText,
	})
}

// params translates req into the SDK's request.
func (c *Client) params(req Request) (openai.ChatCompletionNewParams, *compiledSchema, error) {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.cfg.Model)}
	if len(req.Messages) == 0 {
		return p, nil, errors.New("request has no messages")
	}
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case RoleAssistant:
			var a openai.ChatCompletionAssistantMessageParam
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID:       tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
					}})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case RoleTool:
			if m.ToolCallID == "" {
				return p, nil, fmt.Errorf("message %d: tool result without a tool call id", i)
			}
			p.Messages = append(p.Messages, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			return p, nil, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	for _, t := range req.Tools {
		fd := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fd))
	}
	if req.ToolChoice != "" && len(req.Tools) > 0 {
		p.ToolChoice.OfAuto = openai.String(req.ToolChoice)
	}
	temp := c.cfg.Temperature
	if req.Temperature != nil {
		temp = req.Temperature
	}
	if temp != nil {
		p.Temperature = openai.Float(*temp)
	}
	maxTok := c.cfg.MaxTokens
	if req.MaxTokens > 0 {
		maxTok = req.MaxTokens
	}
	if maxTok > 0 {
		// max_tokens rather than max_completion_tokens: every
		// OpenAI-compatible server understands it.
		p.MaxTokens = openai.Int(int64(maxTok))
	}
	var cs *compiledSchema
	if req.Schema != nil {
		var err error
		if cs, err = compileSchema(req.Schema.Schema); err != nil {
			return p, nil, fmt.Errorf("schema %q: %w", req.Schema.Name, err)
		}
		js := shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: req.Schema.Name, Schema: req.Schema.Schema}
		if req.Schema.Description != "" {
			js.Description = openai.String(req.Schema.Description)
		}
		if req.Schema.Strict {
			js.Strict = openai.Bool(true)
		}
		p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{JSONSchema: js}
	}
	return p, cs, nil
}

// Embeddings is the result of an embedding call.
type Embeddings struct {
	Vectors  [][]float32 // one per input, in order
	Model    string
	Tokens   int
	Attempts int
}

// Embed returns one vector per text.
func (c *Client) Embed(ctx context.Context, texts []string) (*Embeddings, error) {
	if len(texts) == 0 {
		return &Embeddings{Model: c.cfg.Model}, nil
	}
	req := Request{Role: "embedding"}
	start := time.Now()
	var out *Embeddings
	attempts, ferr := c.retry(ctx, "embed", func(ctx context.Context, _ int) error {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errAttemptTimeout)
		defer cancel()
		res, err := c.embed.New(actx, openai.EmbeddingNewParams{
			Model:          openai.EmbeddingModel(c.cfg.Model),
			Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
			EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
		})
		if err != nil {
			return withCause(actx, err)
		}
		if len(res.Data) != len(texts) {
			return errMalformed(fmt.Sprintf("%d embeddings for %d inputs", len(res.Data), len(texts)))
		}
		e := &Embeddings{Vectors: make([][]float32, len(texts)), Model: res.Model, Tokens: int(res.Usage.PromptTokens)}
		for _, d := range res.Data {
			if d.Index < 0 || int(d.Index) >= len(texts) || e.Vectors[d.Index] != nil {
				return errMalformed(fmt.Sprintf("embedding index %d out of place", d.Index))
			}
			v := make([]float32, len(d.Embedding))
			for i, x := range d.Embedding {
				v[i] = float32(x)
			}
			e.Vectors[d.Index] = v
		}
		out = e
		return nil
	})
	d := time.Since(start)
	if ferr != nil {
		ferr.Attempts = attempts
		return nil, c.fail(ctx, "embed", req, &Response{Duration: d}, ferr)
	}
	out.Attempts = attempts
	c.record(ctx, "embed", req, Tokens{In: out.Tokens}, attempts, d, "ok", "")
	return out, nil
}

// Models lists the model ids the endpoint offers (a connection check for
// the editor's settings).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	var ids []string
	_, ferr := c.retry(ctx, "models", func(ctx context.Context, _ int) error {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, errAttemptTimeout)
		defer cancel()
		page, err := c.models.List(actx)
		if err != nil {
			return withCause(actx, err)
		}
		ids = ids[:0]
		for _, m := range page.Data {
			ids = append(ids, m.ID)
		}
		return nil
	})
	if ferr != nil {
		ferr.Op, ferr.Config, ferr.Endpoint = "models", c.cfg.Name, c.cfg.Endpoint()
		ferr.Err = scrub(ferr.Err, c.key)
		ferr.Retryable = ferr.Kind.transient()
		return nil, ferr
	}
	return ids, nil
}

var (
	errAttemptTimeout = errors.New("no reply within the timeout")
	errStreamCut      = errors.New("the stream ended before the model finished")
)

type malformedError struct{ msg string }

func (e *malformedError) Error() string { return "malformed reply: " + e.msg }

func errMalformed(msg string) error { return &malformedError{msg} }

type callbackError struct{ err error }

func (e *callbackError) Error() string { return "stream callback: " + e.err.Error() }
func (e *callbackError) Unwrap() error { return e.err }

// withCause replaces a bare "context canceled" from an attempt's own
// timeout with the timeout, so that it is classified and retried.
func withCause(actx context.Context, err error) error {
	if cause := context.Cause(actx); errors.Is(cause, errAttemptTimeout) {
		return errAttemptTimeout
	}
	return err
}

// retry runs attempt until it succeeds, fails for good, or the policy is
// spent. It returns the number of attempts made.
func (c *Client) retry(ctx context.Context, op string, attempt func(ctx context.Context, n int) error) (int, *Error) {
	for n := 1; ; n++ {
		err := attempt(ctx, n)
		if err == nil {
			return n, nil
		}
		e := c.classify(ctx, err)
		e.Attempts = n
		if !e.Kind.transient() || n > c.policy.MaxRetries {
			return n, e
		}
		delay, fromServer := c.policy.backoff(n-1, c.opts.Rand), false
		if e.RetryAfter > 0 {
			delay, fromServer = e.RetryAfter, true
		}
		if fromServer && delay > c.policy.MaxRetryAfter {
			e.Err = fmt.Errorf("%w (the endpoint asks to wait %s, more than the %s this client waits)", e.Err, delay, c.policy.MaxRetryAfter)
			return n, e
		}
		ev := RetryEvent{Op: op, Attempt: n, Delay: delay, FromServer: fromServer, Kind: e.Kind, Status: e.Status, Err: scrub(e.Err, c.key)}
		c.log.Info("llm retry", "op", op, "attempt", n, "delay", delay, "kind", e.Kind.String(), "status", e.Status, "err", ev.Err.Error())
		if c.opts.OnRetry != nil {
			c.opts.OnRetry(ev)
		}
		if err := c.opts.Sleep(ctx, delay); err != nil {
			return n, c.classify(ctx, err)
		}
	}
}

// classify turns an attempt's error into an *Error with its kind.
func (c *Client) classify(ctx context.Context, err error) *Error {
	e := &Error{Err: err}
	var apiErr *openai.Error
	var cb *callbackError
	var mal *malformedError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case ctx.Err() != nil:
		e.Kind = KindCanceled
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e.Kind = KindTimeout
		}
		e.Err = ctx.Err()
	case errors.As(err, &cb):
		e.Kind = KindCallback
	case errors.Is(err, errAttemptTimeout):
		e.Kind = KindTimeout
		e.Err = fmt.Errorf("no reply within %s (timeout_seconds)", c.cfg.Timeout)
	case errors.As(err, &apiErr):
		e.Status = apiErr.StatusCode
		msg := apiErr.Message
		if msg == "" && apiErr.StatusCode != 0 {
			msg = http.StatusText(apiErr.StatusCode)
		}
		e.Err = fmt.Errorf("HTTP %d: %s", apiErr.StatusCode, msg)
		if apiErr.Response != nil {
			if d, ok := retryAfter(apiErr.Response.Header, time.Now()); ok {
				e.RetryAfter = d
			}
		}
		switch s := apiErr.StatusCode; {
		case s == http.StatusTooManyRequests:
			e.Kind = KindRateLimited
		case s == http.StatusRequestTimeout:
			e.Kind = KindTimeout
		case s >= 500:
			e.Kind = KindServer
		default:
			e.Kind = KindClient
		}
	case errors.As(err, &mal), errors.As(err, &syn), errors.As(err, &typ),
		// The body was read whole but its JSON is broken or cut short.
		strings.Contains(err.Error(), "error parsing response json"),
		strings.Contains(err.Error(), "expected destination type"):
		e.Kind = KindMalformed
	case errors.Is(err, errStreamCut), errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind = KindStreamCut
	case strings.Contains(err.Error(), "received error while streaming"):
		e.Kind = KindServer
	case errors.As(err, &netErr), errors.Is(err, io.EOF):
		e.Kind = KindNetwork
		if netErr != nil && netErr.Timeout() {
			e.Kind = KindTimeout
		}
	default:
		e.Kind = KindUnknown
	}
	e.Err = scrub(e.Err, c.key)
	return e
}
