package core

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowcabal/flowcabal/store"
)

// Budget bounds one run. Steps count model calls (sub-agents included);
// Tokens count prompt and completion tokens as the endpoint reports them.
type Budget struct {
	Steps  int `json:"steps"`
	Tokens int `json:"tokens"`
}

// DefaultBudget is used for the fields a Task and the Manager leave zero.
var DefaultBudget = Budget{Steps: 16, Tokens: 120_000}

func (b Budget) or(d Budget) Budget {
	if b.Steps <= 0 {
		b.Steps = d.Steps
	}
	if b.Tokens <= 0 {
		b.Tokens = d.Tokens
	}
	return b
}

// A Task is one request to a role.
type Task struct {
	// Role is the role the run belongs to ("B", "C"): one run per role at
	// a time, the others wait in order.
	Role string
	// Agent is the loop to run on Input.
	Agent *Agent
	// Parallel, used instead of Agent, runs each agent on Input and
	// passes their answers, in the order of Parallel, to Merge.
	Parallel []*Agent
	Merge    func([]SubAnswer) (json.RawMessage, error)
	// Concurrency is how many Parallel agents run at once; 0 or 1 runs
	// them one after the other.
	Concurrency int
	// Input is the observation: the user message that starts the loop.
	Input string
	// Budget bounds the run; zero fields take the Manager's.
	Budget Budget
	// ID names the run; empty picks a unique one.
	ID string
	// Node labels the log entries (the workflow node the task is about).
	Node string
	// Serves is the workflow run whose cost the task's calls count to
	// (a Role C check of a node's output); Manager.Run takes it from its
	// context when unset.
	Serves store.Attribution
}

// SubAnswer is one parallel agent's answer.
type SubAnswer struct {
	Agent  string          `json:"agent"`
	Answer json.RawMessage `json:"answer,omitempty"`
	// Err says why the agent gave no answer (its run failed).
	Err string `json:"err,omitempty"`
}

// Result is a finished run.
type Result struct {
	RunID string
	// Answer is the final answer: JSON checked against the agent's schema,
	// or, for an agent without a schema, the answer text as a JSON string.
	Answer json.RawMessage
	// Text is the model's final message as written.
	Text   string
	Steps  int
	Tokens int
	// Resumed says the run continued from a checkpoint.
	Resumed bool
}

// EventKind says what an Event reports.
type EventKind string

// The event kinds.
const (
	EventQueued    EventKind = "queued"
	EventStarted   EventKind = "started"
	EventModel     EventKind = "model"    // the agent is asking the model
	EventTool      EventKind = "tool"     // the agent calls a tool
	EventSubAgent  EventKind = "subagent" // a sub-agent starts
	EventRepair    EventKind = "repair"   // the answer is sent back for repair
	EventPaused    EventKind = "paused"
	EventResumed   EventKind = "resumed"
	EventDone      EventKind = "done"
	EventFailed    EventKind = "failed"
	EventCancelled EventKind = "cancelled"
)

// Event is a progress report: which agent or sub-agent acts and how. The
// server maps them to $/progress.
type Event struct {
	Kind  EventKind
	RunID string
	Role  string
	// Agent is the acting agent; a sub-agent's name is its path
	// ("checker/timeline").
	Agent string
	Tool  string
	Step  int
	// Message is one human-readable line.
	Message string
}

// Errors a run ends with. Test with errors.Is; the error text says more.
var (
	// ErrBudget: the run's steps or tokens are spent.
	ErrBudget = errors.New("agent budget spent")
	// ErrAnswer: the final answer failed its schema, after the repair round.
	ErrAnswer = errors.New("agent answer invalid")
	// ErrCancelled: the run was cancelled.
	ErrCancelled = errors.New("agent run cancelled")
	// ErrNoRun: no such run.
	ErrNoRun = errors.New("no such agent run")
)

// BudgetError says which limit stopped a run.
type BudgetError struct {
	Limit string // "steps" or "tokens"
	Used  int
	Max   int
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("agent budget spent: %d of %d %s used, stopped before the answer", e.Used, e.Max, e.Limit)
}

// Is makes errors.Is(err, ErrBudget) true.
func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

// AnswerError is a final answer that still failed its schema (or the
// agent's Validate) after the repair round.
type AnswerError struct {
	Agent string
	Err   error // the last validation error
}

func (e *AnswerError) Error() string {
	return fmt.Sprintf("agent %s answered twice without a valid answer: %v", e.Agent, e.Err)
}

// Is makes errors.Is(err, ErrAnswer) true.
func (e *AnswerError) Is(target error) bool { return target == ErrAnswer }

// Unwrap returns the validation error.
func (e *AnswerError) Unwrap() error { return e.Err }
