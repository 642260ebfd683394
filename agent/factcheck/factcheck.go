// Package factcheck holds Role C's deterministic checkers: they compare a
// chapter's text with what the author declared in the knowledge files and
// report what a machine can verify without a model.
//
//   - name: near-misses of declared names and aliases ("Bingly", "林黛王"),
//     with the right name as a quick-fix;
//   - fact: an attribute stated with another value than the entity's facts
//     as of the chapter (age, eye colour, income, counts, rank, widowhood,
//     distances);
//   - state: a character whose status as of the chapter is away, dead or
//     imprisoned acting or speaking in the scene;
//   - world: terms that meta/world-rules.md forbids, in their ordinary
//     word forms;
//   - continuity: names and titles from the previous chapter changed: in
//     English a rank or a name one edit away, in Chinese a name that
//     spoke or was addressed there written with one character that
//     sounds or looks alike, or a woman addressed with a man's title.
//
// Check is a pure function of the text, the chapter and a [Knowledge]
// built once from the entities and world rules. Chinese text (no spaces,
// traditional or simplified) is handled where a checker makes sense for
// it. Nothing here calls a model.
package factcheck

import (
	"cmp"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/longbridgeapp/opencc"
)

// The finding types.
const (
	TypeName       = "name"
	TypeFact       = "fact"
	TypeState      = "state"
	TypeWorld      = "world"
	TypeContinuity = "continuity"
)

// Finding is one thing a checker found in the text.
type Finding struct {
	// Type is TypeName, TypeFact, TypeState, TypeWorld or TypeContinuity.
	Type string
	// Start and End are byte offsets into the checked text, end exclusive.
	Start, End int
	// Message says what is wrong, for the author.
	Message string
	// Evidence is what the text contradicts.
	Evidence Evidence
	// Suggestion is replacement text for [Start, End) when a quick-fix
	// makes sense ("" when none does).
	Suggestion string
	// Confidence is between 0 and 1.
	Confidence float64
}

// Severity is how a finding is shown, from its confidence: "error" from
// 0.8, "warning" from 0.5, else "information". The editor's diagnostics
// and `flowcabal check` use it alike.
func (f Finding) Severity() string {
	switch {
	case f.Confidence >= 0.8:
		return "error"
	case f.Confidence >= 0.5:
		return "warning"
	}
	return "information"
}

// Evidence points at the declaration a finding rests on.
type Evidence struct {
	// Path is the file, relative to the project root: the entity file, or
	// meta/world-rules.md.
	Path string
	// Resource is the resource path of the entity ("" for a rule).
	Resource string
	// Key and Value are the fact as declared, as of the chapter; for a
	// name finding Key is "name" and Value the right name.
	Key, Value string
	// Line is the 1-based line of the declaration in Path (0 when unknown).
	Line int
	// Since is the chapter of the progression that set Value (0 for a
	// base fact).
	Since int
	// Rule is the forbidden term or pattern, for a world finding.
	Rule string
	// Quote is the earlier text, for a continuity finding.
	Quote string
}

// Check runs every deterministic checker over text, checked as chapter
// chapter of the manuscript (facts and status as of that chapter), and
// returns the findings sorted by position. prev is the previous chapter's
// text for the continuity checker, "" when there is none. A nil k checks
// nothing.
func Check(text string, chapter int, k *Knowledge, prev string) []Finding {
	if k == nil || text == "" {
		return nil
	}
	if !utf8.ValidString(text) {
		text = toValid(text)
	}
	d := k.analyze(text, chapter)
	var out []Finding
	out = append(out, k.checkNames(d)...)
	out = append(out, k.checkFacts(d)...)
	out = append(out, k.checkNearValues(d)...)
	// A place predication the value checks above already read (a value
	// one character off) is said once.
	more := append(k.checkCJKPlaces(d), k.checkCJKValueSwaps(d)...)
	more = append(more, k.checkCJKTitles(d)...)
	if d.cjk {
		more = append(more, k.checkNamedValues(d)...)
		more = append(more, k.checkReplacedSegments(d)...)
		more = append(more, k.checkCJKFormerSelf(d)...)
		more = append(more, k.checkCJKReturns(d)...)
		more = append(more, k.checkCJKSiblingNames(d)...)
	}
	more = append(more, k.checkLatinPlaces(d)...)
	more = append(more, k.checkEstatePlaces(d)...)
	more = append(more, k.checkHeadedValues(d)...)
	more = append(more, k.checkKeyOf(d)...)
	more = append(more, k.checkOrdinalPlaces(d)...)
	more = append(more, k.checkNamingFrames(d)...)
	more = append(more, k.checkCJKBirthdays(d)...)
	more = append(more, k.checkTopicMeasures(d)...)
	more = append(more, k.checkAppositions(d)...)
	for _, f := range append(more, k.checkDemonymOrigins(d)...) {
		if !slices.ContainsFunc(out, func(o Finding) bool { return o.Start < f.End && f.Start < o.End }) {
			out = append(out, f)
		}
	}
	out = append(out, k.predicated(d)...)
	for _, f := range append(k.checkKinship(d), k.checkService(d)...) {
		if !slices.ContainsFunc(out, func(o Finding) bool { return o.Start < f.End && f.Start < o.End }) {
			out = append(out, f)
		}
	}
	out = append(out, k.checkState(d)...)
	out = append(out, k.checkWorld(d)...)
	if prev != "" {
		out = append(out, k.checkContinuity(d, prev)...)
	}
	d.citeDwellings(out)
	slices.SortStableFunc(out, func(a, b Finding) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.End, b.End)
	})
	return out
}

// toValid replaces invalid bytes with spaces, keeping every byte offset.
func toValid(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			b[i] = ' '
			i++
			continue
		}
		i += n
	}
	return string(b)
}

// RuneOffsets converts the byte offsets start and end of text into code
// point offsets (what the evaluation files and Python count).
func RuneOffsets(text string, start, end int) (int, int) {
	start = min(max(start, 0), len(text))
	end = min(max(end, start), len(text))
	s := utf8.RuneCountInString(text[:start])
	return s, s + utf8.RuneCountInString(text[start:end])
}

// ByteOffset converts a code point offset of text into a byte offset.
func ByteOffset(text string, runes int) int {
	if runes <= 0 {
		return 0
	}
	n := 0
	for i := range text {
		if n == runes {
			return i
		}
		n++
	}
	return len(text)
}

// Knowledge is what the checkers compare text with: the entities, the
// world rules and the tables built from them. Build it once with
// NewKnowledge and share it; it is immutable and safe for concurrent use.
type Knowledge struct {
	ents   []*entInfo
	world  *knowledge.WorldRules
	folder *textsearch.Folder

	// Latin names: by first word.
	latin map[string][]*nameSeq
	// CJK names: by first folded rune.
	cjk map[rune][]*nameSeq
	// Name words of Latin names that a near-miss may be measured against.
	targets []*target
	// All words of any Latin name, for "is this a declared name word".
	nameWords map[string]bool
	// CJK near-miss keys.
	cjkNear map[cjkKey][]*nameSeq
	cjkLens []int
	// cjkDoubled holds the names with a doubled character by the rest
	// (doubled.go).
	cjkDoubled map[doubledKey][]*nameSeq
	// cjkSounds holds the two-character names by their readings, tones
	// included (cjkSoundKey).
	cjkSounds map[string][]*nameSeq

	// forbidden holds CJK terms and patterns; Latin terms are in
	// termsByFirst, by their first word, with the first three bytes of
	// those words in termPrefixes.
	forbidden    []*forbiddenRule
	termsByFirst map[string][]*forbiddenRule
	termPrefixes map[string]bool
	errs         []error

	// Fact vocabularies: counted nouns ("daughters"), quantity units
	// ("a year", "mile"), keys with colour values ("eyes").
	nouns      map[string]bool
	unitWords  [][]string
	colourKeys map[string]bool
	cjkFacts   *cjkFactInfo

	s2tOnce sync.Once
	s2t     *opencc.OpenCC
	s2tMemo sync.Map // rune -> rune: toTraditional's answers

	// families are the family names of the declared people (folded): the
	// first character of each Chinese name of two or more, made on first
	// use.
	familiesOnce sync.Once
	// dwellings are the places whose file names who lives there, found
	// once (dwellers.go).
	dwellingsOnce sync.Once
	dwellings     []*entInfo
	families      map[rune]bool

	// originWords are the capitalised words of declared origins
	// ("Livonian"), made on first use.
	originWordsOnce sync.Once
	originWords     map[string]bool

	// placeNames are the folded names of the declared entities that are
	// no person, made on first use (keyof.go).
	placeNamesOnce sync.Once
	placeNames     map[string]bool

	// namingFrames holds, per entity, what the manuscript calls it after
	// a naming verb (namedframes.go), made on first use.
	namingFrames sync.Map // *entInfo -> namingFrames

	// book is the manuscript as a dictionary of forms (nil without one).
	book *bookForms
}

// Errs reports what NewKnowledge had to leave out (an invalid forbidden
// pattern, for example).
func (k *Knowledge) Errs() []error { return k.errs }

// FromProject builds the Knowledge of a loaded project.
func FromProject(p *knowledge.Project, folder *textsearch.Folder) *Knowledge {
	k := NewKnowledge(p.Entities, p.WorldRules, folder)
	var chapters []string
	var nums []int
	for _, c := range p.Chapters {
		if c.Document != nil {
			chapters = append(chapters, c.Document.Body)
			nums = append(nums, c.Number)
		}
	}
	k.UseManuscriptChapters(nums, chapters)
	return k
}

// UseManuscript gives the checks the manuscript's chapters as the book's
// dictionary (FromProject does it with the project's own): how often the
// book spells a form decides whether a near-miss is a typo.
func (k *Knowledge) UseManuscript(chapters []string) {
	k.book = newBookForms(chapters, k.folder)
}

// UseManuscriptChapters is UseManuscript with each chapter's number
// (nums[i] numbers chapters[i]): a text checked as part of a chapter can
// then be judged with the whole chapter around it (followedInBook).
func (k *Knowledge) UseManuscriptChapters(nums []int, chapters []string) {
	k.UseManuscript(chapters)
	if k.book != nil && len(nums) == len(chapters) {
		k.book.nums = nums
		k.book.byNumber = make(map[int]string, len(nums))
		for i, n := range nums {
			k.book.byNumber[n] = chapters[i]
		}
	}
}

// CheckChapter checks chapter n of a loaded project: the chapter file's
// body as text, the previous chapter's body for continuity. Offsets are
// shifted to the chapter file (the body's offset added), so they index
// the file as it is on disk. It returns nil when there is no chapter n.
func CheckChapter(p *knowledge.Project, k *Knowledge, n int) []Finding {
	d := p.Chapter(n)
	if d == nil {
		return nil
	}
	prev := ""
	if pd := p.Chapter(n - 1); pd != nil {
		prev = pd.Body
	}
	fs := Check(d.Body, n, k, prev)
	for i := range fs {
		fs[i].Start += d.BodyOffset
		fs[i].End += d.BodyOffset
	}
	return fs
}
