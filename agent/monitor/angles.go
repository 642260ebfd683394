package monitor

import (
	"strings"

	"github.com/flowcabal/flowcabal/agent/core"
)

// The model angles: each is a sub-agent of one run, with its own
// instructions, and reports findings of its own type.
const (
	AngleTimeline  = "timeline"
	AngleCharacter = "character"
	AngleWorld     = "world"
	AngleSetup     = "setup-payoff"
)

// Angles are every model angle, in the order they run.
var Angles = []string{AngleTimeline, AngleCharacter, AngleWorld, AngleSetup}

// commonRules end every angle's instructions: the line between fact
// checking and creative judgement, and the form of a finding.
const commonRules = `
You check low-level facts only: what a careful reader could verify against the story so far and the project's knowledge files. You never judge style, quality, pacing, tone, plot choices or prose; do not suggest improvements; a bold or surprising choice that contradicts nothing is not a finding. When unsure, leave it out or give a low confidence.

Use the tools to look facts up (entity facts as of the chapter, earlier chapters, world rules in meta/) before reporting a contradiction.

Report each problem once:
- "quote": the exact words of the checked text that are wrong, copied character for character, as short as possible (a phrase or one sentence);
- "explanation": what it contradicts, in one or two sentences;
- "evidence": where the contradicting fact is (a resource path such as entities/characters/lin, or "chapter 3: <its sentence>");
- "suggestion": replacement text for the quote that fixes the fact with the smallest change, or "" when there is none;
- "confidence": 0 to 1, how sure you are that this is a factual error.
Answer {"findings": []} when you find nothing.`

var angleFocus = map[string]string{
	AngleTimeline: `You are the timeline checker of a novel-writing tool.
Check the order and timing of events: dates, seasons, ages, durations, travel times, what happened before or after what, and references to earlier events that contradict when or whether they happened.`,
	AngleCharacter: `You are the character state checker of a novel-writing tool.
Check each character's state against the facts as of this chapter: alive or dead, present or away, imprisoned, married, their relations, titles, ages, physical traits and possessions, and what they can know at this point.`,
	AngleWorld: `You are the world rules checker of a novel-writing tool.
Check the text against the setting's rules in meta/world-rules.md and the other meta files: forbidden things, technology, magic, geography, institutions, customs and the era's limits.`,
	AngleSetup: `You are the setup and payoff checker of a novel-writing tool.
Check that what the text treats as already known was set up earlier (an object, a promise, a secret, a wound) and that it does not contradict how it was set up; report a payoff without setup or one that contradicts its setup.`,
}

// findingsSchema is the answer every angle gives.
var findingsSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"findings": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"quote":       map[string]any{"type": "string", "minLength": 1},
					"explanation": map[string]any{"type": "string", "minLength": 1},
					"evidence":    map[string]any{"type": "string"},
					"suggestion":  map[string]any{"type": "string"},
					"confidence":  map[string]any{"type": "number", "minimum": 0, "maximum": 1},
					"offset":      map[string]any{"type": "integer", "description": "optional: character offset of the quote in the checked text"},
				},
				"required": []any{"quote", "explanation", "confidence"},
			},
		},
	},
	"required": []any{"findings"},
}

// angleAgent defines the sub-agent of one angle.
func angleAgent(name string, tools []core.Tool) *core.Agent {
	return &core.Agent{
		Name:         name,
		Instructions: strings.TrimSpace(angleFocus[name]) + "\n" + commonRules,
		Tools:        tools,
		Schema:       findingsSchema,
		SchemaName:   "findings",
	}
}

// knownAngle reports whether name is a model angle.
func knownAngle(name string) bool {
	_, ok := angleFocus[name]
	return ok
}

// anglesForChecks maps a node's `checks` list to angles. Names are the
// angles' own and their short forms; "continuity" asks for the timeline
// and setup/payoff angles. Unknown names are ignored.
func anglesForChecks(checks []string) []string {
	want := map[string]bool{}
	for _, c := range checks {
		switch strings.ToLower(strings.TrimSpace(c)) {
		case "timeline", "time", "dates":
			want[AngleTimeline] = true
		case "character", "characters", "state", "character-state":
			want[AngleCharacter] = true
		case "world", "world-rules", "rules":
			want[AngleWorld] = true
		case "setup", "payoff", "setup-payoff", "foreshadowing":
			want[AngleSetup] = true
		case "continuity":
			want[AngleTimeline] = true
			want[AngleSetup] = true
		case "all", "facts":
			for _, a := range Angles {
				want[a] = true
			}
		}
	}
	var out []string
	for _, a := range Angles {
		if want[a] {
			out = append(out, a)
		}
	}
	return out
}
