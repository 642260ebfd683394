package assemble

import (
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// A Snapshot is the project state Role A reads: an immutable view, at
// one version, of the knowledge and its derived levels and indexes. The
// store provides one over bbolt; [MemSnapshot] builds one from files.
// Implementations must return the same values for the life of the
// snapshot and be safe for concurrent use.
type Snapshot interface {
	// Meta returns the meta/ documents (outline, style guide, world
	// rules), sorted by path.
	Meta() []*Resource
	// Entities returns the entities declared under entities/, sorted by path.
	Entities() []*Entity
	// Chapters returns the manuscript chapters, sorted by number.
	Chapters() []*Chapter
	// ChapterByPath returns the chapter whose path is p, or nil.
	ChapterByPath(p string) *Chapter
	// Arcs returns the arcs (groups of consecutive chapters), in order.
	Arcs() []*Arc
	// Summaries returns the full-work summaries (summaries/full-work.md…).
	Summaries() []*Resource
	// Profiles returns the agent-maintained profiles under profiles/,
	// sorted by path.
	Profiles() []*Profile

	// ChapterIndex ranks whole chapters; document ids are chapter paths.
	ChapterIndex() *textsearch.Index
	// PassageIndex ranks passages; document ids are [PassageID] values.
	PassageIndex() *textsearch.Index
	// SearchArcs ranks the arcs against weighted query terms (as
	// [textsearch.Index.SearchWeighted], best k), each arc scored as one
	// document holding its chapters' text: exactly as an index of the
	// arcs would. Used to scan long works arc-first.
	SearchArcs(weights map[string]float64, k int) []textsearch.Hit
	// EntityIndex ranks entities by their whole file (names, facts,
	// relations, description); document ids are entity paths. It lets a
	// role or description ("Elizabeth's closest friend") find an entity.
	EntityIndex() *textsearch.Index
	// Matcher finds mentions of entity names and aliases; its keys are
	// entity paths.
	Matcher() *textsearch.Matcher
	// Analyzer turns text into the terms the indexes hold.
	Analyzer() *textsearch.Analyzer
	// Tokens counts the tokens of text for the configured model family;
	// the count must be exact. When key is not empty it identifies text
	// uniquely (it holds a content hash: see [CountKey]), so an
	// implementation may memoise by key without reading text.
	Tokens(key, text string) int
}

// A Resource is one project file with its derived levels.
type Resource struct {
	// Path is the file path relative to the project root, with slashes.
	Path string
	// Hash identifies the content of L2.
	Hash string
	// L2 is the text; L1 the overview (200–500 tokens); L0 one sentence.
	L0, L1, L2 string
	// Extractive says L0/L1 were made without a model.
	Extractive bool
	// Stale says L0/L1 were derived from an older L2 and are being
	// regenerated.
	Stale bool
}

// Text returns the text at level (0, 1 or 2); a missing L1 or L0 falls
// back to the next lower level that exists.
func (r *Resource) Text(level int) string {
	switch level {
	case 2:
		return r.L2
	case 1:
		if r.L1 != "" {
			return r.L1
		}
		return r.L0
	default:
		return r.L0
	}
}

// A Chapter is one manuscript chapter.
type Chapter struct {
	Resource
	Number int
	// Passages are the spans of L2 the passage index holds, in order.
	Passages []textsearch.Passage
}

// An Arc is a run of consecutive chapters with its own summaries.
type Arc struct {
	Resource
	Number      int
	First, Last int // chapter numbers, inclusive
	// Derived says the arc has no summary file: its path names the file
	// it would have, and its levels are its chapters' L0s.
	Derived bool
}

// An Entity is a declared entity with the levels of its file.
type Entity struct {
	// Decl is what the entity file declares.
	Decl *knowledge.Entity
	// Resource is the entity file; L2 is its description.
	Resource
}

// A Profile is an agent-maintained projection of the project (a
// character's appearances and state, a plot thread, the world state, the
// style), kept under profiles/.
type Profile struct {
	Resource
	// About is the entity resource the profile is about
	// ("entities/characters/elizabeth-bennet"), or "" for a profile of the
	// whole work (world state, style, themes).
	About string
	// Reveal keeps the profile out of contexts for chapters before it.
	Reveal int
}

// CountKey is the key under which Role A asks for the token count of a
// resource's L2 (level "L2") as it injects it: [InjectedText] of the text
// or of a passage of it. part narrows L2 to a passage ("bytes 10-200"),
// or is "". hash is the resource's content hash. A snapshot that stores
// counts at index time can answer Tokens by this key alone. L0 and L1
// are asked for with an empty key.
func CountKey(hash, level, part string) string {
	return hash + "|" + level + "|" + part
}

// InjectedText is the exact text whose count [CountKey] names.
func InjectedText(text string) string {
	return strings.TrimSpace(text) + "\n\n"
}
