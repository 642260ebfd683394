package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/store"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// MaxToolResult bounds a tool result sent back to the model, in bytes: a
// whole chapter would crowd out the conversation.
const MaxToolResult = 16 << 10

// frame is one agent's conversation inside a run: the top agent's, a
// sub-agent's, or a parallel agent's. Frames are what a checkpoint keeps.
type frame struct {
	Path     string        `json:"path"`
	Agent    string        `json:"agent"`
	Messages []llm.Message `json:"messages"`
	Repairs  int           `json:"repairs,omitempty"`
}

// state is a run's checkpointed state.
type state struct {
	Role   string `json:"role"`
	Agent  string `json:"agent"`
	Node   string `json:"node,omitempty"`
	Input  string `json:"input"`
	Budget Budget `json:"budget"`
	Steps  int    `json:"steps"`
	Tokens int    `json:"tokens"`
	// Frames are the conversations in progress, by path.
	Frames map[string]*frame `json:"frames,omitempty"`
	// Done holds the answers of parallel agents that finished.
	Done   map[string]SubAnswer `json:"done,omitempty"`
	Answer json.RawMessage      `json:"answer,omitempty"`
}

// loop runs agent p in the frame at path until it answers. A frame already
// in the state (from a checkpoint) is continued rather than restarted.
func (r *Run) loop(ctx context.Context, p *prepared, path, label, task string) (json.RawMessage, string, error) {
	fr := r.frame(path)
	if fr == nil {
		fr = &frame{Path: path, Agent: label, Messages: []llm.Message{
			llm.System(systemPrompt(p)),
			llm.User(task),
		}}
		r.setFrame(fr)
		if err := r.save(ctx, store.RunRunning); err != nil {
			return nil, "", err
		}
	}
	tools := make([]llm.Tool, len(p.order))
	for i, bt := range p.order {
		tools[i] = llm.Tool{Name: bt.Name, Description: bt.Description, Parameters: bt.Parameters}
	}
	for {
		if err := r.gate(ctx); err != nil {
			return nil, "", err
		}
		if pending := pendingCalls(fr.Messages); len(pending) > 0 {
			for _, tc := range pending {
				if err := r.gate(ctx); err != nil {
					return nil, "", err
				}
				out, err := r.callTool(ctx, p, fr, label, tc)
				if err != nil {
					return nil, "", err
				}
				r.mu.Lock()
				fr.Messages = append(fr.Messages, llm.ToolResult(tc.ID, out))
				r.mu.Unlock()
				if err := r.save(ctx, store.RunRunning); err != nil {
					return nil, "", err
				}
			}
			continue
		}

		steps, tokens, budget := r.usage()
		if steps >= budget.Steps {
			return nil, "", &BudgetError{Limit: "steps", Used: steps, Max: budget.Steps}
		}
		if tokens >= budget.Tokens {
			return nil, "", &BudgetError{Limit: "tokens", Used: tokens, Max: budget.Tokens}
		}
		r.emit(Event{Kind: EventModel, Agent: label, Step: steps + 1, Message: label + ": thinking (step " + fmt.Sprint(steps+1) + ")"})
		req := llm.Request{Messages: fr.Messages, Tools: tools, Role: "agent:" + r.Role, Node: r.task.Node}
		if p.agent.ResponseFormat && p.agent.Schema != nil {
			name := p.agent.SchemaName
			if name == "" {
				name = "answer"
			}
			req.Schema = &llm.Schema{Name: name, Schema: p.agent.Schema}
		}
		start := time.Now()
		resp, err := r.m.opts.Client.Chat(ctx, req)
		var lerr *llm.Error
		if err != nil && resp != nil && errors.As(err, &lerr) && lerr.Kind == llm.KindSchema {
			// The client checked the answer against the schema; the
			// repair round below deals with it.
			err = nil
		}
		d := time.Since(start)
		var tok llm.Tokens
		if resp != nil {
			tok = resp.Tokens
		}
		r.mu.Lock()
		r.st.Steps++
		r.st.Tokens += tok.In + tok.Out
		r.mu.Unlock()
		entry := store.LogEntry{Agent: label, Duration: d, TokensIn: tok.In, TokensOut: tok.Out,
			Input: lastText(fr.Messages), Status: "ok"}
		if resp != nil {
			entry.Model = resp.Model
			entry.Output = replyText(resp)
		}
		if err != nil {
			entry.Status, entry.Error = "error", err.Error()
			if ctx.Err() != nil {
				entry.Status = "cancelled"
			}
			r.log(ctx, entry)
			if ctx.Err() != nil {
				return nil, "", r.cancelErr(ctx)
			}
			return nil, "", fmt.Errorf("agent %s, step %d: %w", label, steps+1, err)
		}
		r.log(ctx, entry)

		msg := resp.Message()
		seen := map[string]bool{}
		for i := range msg.ToolCalls {
			if id := msg.ToolCalls[i].ID; id == "" || seen[id] {
				// Some servers leave ids out or repeat them; the
				// conversation needs them to pair results with calls.
				msg.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", steps+1, i)
			}
			seen[msg.ToolCalls[i].ID] = true
		}
		r.mu.Lock()
		fr.Messages = append(fr.Messages, msg)
		r.mu.Unlock()
		if len(msg.ToolCalls) == 0 {
			ans, verr := answer(p.answer, resp.Content)
			if verr == nil && p.agent.Validate != nil {
				verr = p.agent.Validate(ans)
			}
			if verr == nil {
				r.dropFrame(path)
				return ans, resp.Content, nil
			}
			if fr.Repairs >= 1 {
				r.log(ctx, store.LogEntry{Agent: label, Status: "invalid-answer", Error: verr.Error(), Output: resp.Content})
				return nil, "", &AnswerError{Agent: label, Err: verr}
			}
			r.mu.Lock()
			fr.Repairs++
			fr.Messages = append(fr.Messages, llm.User(repairPrompt(verr)))
			r.mu.Unlock()
			r.emit(Event{Kind: EventRepair, Agent: label, Step: steps + 1, Message: label + ": answer sent back for repair: " + verr.Error()})
		}
		if err := r.save(ctx, store.RunRunning); err != nil {
			return nil, "", err
		}
	}
}

// callTool runs one tool call and returns the text for the model. Bad
// calls become tool errors for the model; only cancellation and a spent
// budget stop the loop.
func (r *Run) callTool(ctx context.Context, p *prepared, fr *frame, label string, tc llm.ToolCall) (string, error) {
	r.emit(Event{Kind: EventTool, Agent: label, Tool: tc.Name, Message: label + ": calling " + tc.Name})
	start := time.Now()
	out, terr := r.runTool(ctx, p, fr, label, tc)
	entry := store.LogEntry{Agent: label, Tool: tc.Name, Duration: time.Since(start), Input: tc.Arguments, Output: out, Status: "ok"}
	if terr != nil {
		if ctx.Err() != nil || errors.Is(terr, ErrBudget) || errors.Is(terr, ErrCancelled) {
			entry.Status, entry.Error = "cancelled", terr.Error()
			if errors.Is(terr, ErrBudget) {
				entry.Status = "budget"
			}
			r.log(ctx, entry)
			if ctx.Err() != nil {
				return "", r.cancelErr(ctx)
			}
			return "", terr
		}
		entry.Status, entry.Error = "error", terr.Error()
		r.log(ctx, entry)
		data, _ := json.Marshal(map[string]string{"error": terr.Error()})
		return string(data), nil
	}
	r.log(ctx, entry)
	if len(out) > MaxToolResult {
		cut := MaxToolResult
		for cut > 0 && (out[cut]&0xC0) == 0x80 {
			cut--
		}
		out = out[:cut] + fmt.Sprintf("\n…[cut: %d more bytes; ask for less]", len(out)-cut)
	}
	return out, nil
}

func (r *Run) runTool(ctx context.Context, p *prepared, fr *frame, label string, tc llm.ToolCall) (string, error) {
	bt := p.tools[tc.Name]
	if bt == nil {
		names := make([]string, 0, len(p.order))
		for _, t := range p.order {
			names = append(names, t.Name)
		}
		sort.Strings(names)
		if len(names) == 0 {
			return "", fmt.Errorf("unknown tool %q: this agent has no tools; answer directly", tc.Name)
		}
		return "", fmt.Errorf("unknown tool %q; the tools are: %s", tc.Name, strings.Join(names, ", "))
	}
	raw := strings.TrimSpace(tc.Arguments)
	if raw == "" {
		raw = "{}"
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		return "", fmt.Errorf("arguments of %s are not JSON: %v", tc.Name, err)
	}
	if err := bt.params.Validate(v); err != nil {
		return "", fmt.Errorf("arguments of %s do not match its schema: %s", tc.Name, oneLine(err.Error()))
	}
	if bt.sub != nil {
		var a struct {
			Task string `json:"task"`
		}
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			return "", fmt.Errorf("arguments of %s: %v", tc.Name, err)
		}
		sublabel := label + "/" + bt.sub.agent.Name
		r.emit(Event{Kind: EventSubAgent, Agent: sublabel, Message: sublabel + ": " + firstLine(a.Task)})
		subpath := fr.Path + "/" + tc.ID
		ans, _, err := r.loop(ctx, bt.sub, subpath, sublabel, a.Task)
		if err != nil {
			if errors.Is(err, ErrAnswer) {
				r.dropFrame(subpath)
				return "", fmt.Errorf("sub-agent %s failed: %v", bt.sub.agent.Name, err)
			}
			return "", err
		}
		return string(ans), nil
	}
	out, err := safeRun(ctx, bt, json.RawMessage(raw))
	if err != nil && ctx.Err() != nil {
		return "", r.cancelErr(ctx)
	}
	return out, err
}

// safeRun runs a tool, turning a panic into a tool error: a broken tool
// must not take the server down.
func safeRun(ctx context.Context, bt *boundTool, args json.RawMessage) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("tool %s failed: %v", bt.Name, p)
		}
	}()
	return bt.Run(ctx, args)
}

// answer checks a final answer. Without a schema any non-empty text is an
// answer, returned as a JSON string.
func answer(s *jsonschema.Schema, text string) (json.RawMessage, error) {
	if s == nil {
		if strings.TrimSpace(text) == "" {
			return nil, errors.New("the answer is empty")
		}
		data, _ := json.Marshal(text)
		return data, nil
	}
	return validate(s, text)
}

func systemPrompt(p *prepared) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(p.agent.Instructions))
	b.WriteString("\n\nThe tools only read the project; nothing you do changes it. Call them when you need facts, then answer.")
	if p.agent.Schema != nil {
		data, _ := json.Marshal(p.agent.Schema)
		b.WriteString("\nYour final answer (a message without tool calls) must be one JSON value matching this schema, with no prose around it:\n")
		b.Write(data)
	}
	return b.String()
}

func repairPrompt(err error) string {
	return "Your answer was rejected: " + err.Error() + ". Answer again with only the corrected JSON."
}

// pendingCalls returns the tool calls of the last assistant message that
// have no result yet.
func pendingCalls(msgs []llm.Message) []llm.ToolCall {
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	if last < 0 || len(msgs[last].ToolCalls) == 0 {
		return nil
	}
	answered := map[string]bool{}
	for _, m := range msgs[last+1:] {
		if m.Role == llm.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	var out []llm.ToolCall
	for _, tc := range msgs[last].ToolCalls {
		if !answered[tc.ID] {
			out = append(out, tc)
		}
	}
	return out
}

func lastText(msgs []llm.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	m := msgs[len(msgs)-1]
	if m.Role == llm.RoleTool {
		return "tool result " + m.ToolCallID + ": " + m.Content
	}
	return m.Content
}

func replyText(resp *llm.Response) string {
	if len(resp.ToolCalls) == 0 {
		return resp.Content
	}
	var b strings.Builder
	b.WriteString(resp.Content)
	for _, tc := range resp.ToolCalls {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("call " + tc.Name + " " + tc.Arguments)
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}
