package textsearch

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// A Counter counts tokens with a real BPE tokenizer
// (github.com/tiktoken-go/tokenizer, offline vocabularies): o200k_base for
// the GPT-4o, GPT-4.1, GPT-5 and o-series families, cl100k_base for every
// other model, including non-OpenAI ones served through an
// OpenAI-compatible endpoint, for which it is the customary estimate.
// The vocabulary loads lazily on first use. Safe for concurrent use.
type Counter struct {
	encoding tokenizer.Encoding
	once     sync.Once
	codec    tokenizer.Codec
	err      error

	// paragraphs remembers the counts of the lines of long texts, by a
	// 64-bit hash of their bytes (a collision, some 1 in 10^10 for the
	// counts kept, would misstate an estimate, never a text). The long texts counted again and again are
	// prompts that carry Role A's context: an estimate made after the
	// author edits one node counts every node's prompt again, and most of
	// their paragraphs are those it counted before.
	mu         sync.Mutex
	seed       maphash.Seed
	paragraphs map[uint64]int32
}

// EncodingFor returns the name of the encoding used for model.
func EncodingFor(model string) string {
	return string(encodingFor(model))
}

func encodingFor(model string) tokenizer.Encoding {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // "openai/gpt-4o" as some gateways spell it
	}
	for _, p := range []string{"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "gpt-oss"} {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+":") {
			return tokenizer.O200kBase
		}
	}
	return tokenizer.Cl100kBase
}

// NewCounter returns a Counter for the model family of model ("" selects
// cl100k_base).
func NewCounter(model string) *Counter {
	return &Counter{encoding: encodingFor(model)}
}

// Encoding returns the encoding's name.
func (c *Counter) Encoding() string { return string(c.encoding) }

func (c *Counter) load() error {
	c.once.Do(func() {
		c.codec, c.err = tokenizer.Get(c.encoding)
		if c.err != nil {
			c.err = fmt.Errorf("load %s: %w", c.encoding, c.err)
		}
	})
	return c.err
}

// longText is the length above which Count counts the text line by line
// (paragraphEnd): the counts of the lines add up to the count of the
// whole. The
// tokenizer's pre-split regular expression is markedly slower on one huge
// input than on many paragraphs, and a paragraph counted once is not
// counted again (Counter.paragraphs).
const longText = 4 << 10

// maxParagraphs bounds the paragraph counts kept (16 bytes and the map's
// overhead each); past it they are forgotten and kept anew.
const maxParagraphs = 1 << 16

// Count returns the number of tokens in s.
func (c *Counter) Count(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	if err := c.load(); err != nil {
		return 0, err
	}
	if len(s) <= longText {
		return c.codec.Count(s)
	}
	total := 0
	for len(s) > 0 {
		p := s[:paragraphEnd(s)]
		n, err := c.paragraph(p)
		if err != nil {
			return 0, err
		}
		total += n
		s = s[len(p):]
	}
	return total, nil
}

// paragraphEnd returns where the first line of s ends: after the last
// newline of the first run of white space that holds one, or at the end.
// The pre-split of both encodings puts such a run up to its last newline
// in one piece, or with the punctuation before it, and starts the next
// piece after it, so the counts of the lines add up to the count of the
// whole. The one exception is o200k_base's, which also takes a slash
// after punctuation and newlines: a line that starts with one is not
// cut from the line before.
func paragraphEnd(s string) int {
	from := 0
	for {
		i := strings.IndexByte(s[from:], '\n')
		if i < 0 {
			return len(s)
		}
		end := from + i + 1
		for j := end; j < len(s); {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += size
			if r == '\n' {
				end = j
			}
		}
		if end == len(s) || s[end] != '/' {
			return end
		}
		from = end
	}
}

// paragraph counts one paragraph, from what it kept when it can.
func (c *Counter) paragraph(p string) (int, error) {
	if len(p) < 64 {
		return c.codec.Count(p)
	}
	c.mu.Lock()
	if c.paragraphs == nil {
		c.seed = maphash.MakeSeed()
		c.paragraphs = map[uint64]int32{}
	}
	h := maphash.String(c.seed, p)
	n, ok := c.paragraphs[h]
	c.mu.Unlock()
	if ok {
		return int(n), nil
	}
	m, err := c.codec.Count(p)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if len(c.paragraphs) >= maxParagraphs {
		c.paragraphs = map[uint64]int32{}
	}
	c.paragraphs[h] = int32(m)
	c.mu.Unlock()
	return m, nil
}

// MustCount is Count for callers that hold an already-loaded counter: it
// returns a byte-based upper estimate (one token per byte) if counting
// fails, which never under-counts a budget.
func (c *Counter) MustCount(s string) int {
	n, err := c.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// ChatMessage is one message of a chat request, for CountChat.
type ChatMessage struct {
	Role    string
	Content string
}

// The chat format's framing, as OpenAI documents it for its chat models:
// each message costs perMessage tokens besides its role and content, and
// the reply is primed with replyPriming more. Endpoints that serve other
// models frame messages alike to within a few tokens a message.
const (
	perMessage   = 3
	replyPriming = 3
)

// CountChat returns the prompt tokens of a chat request made of msgs: their
// roles and contents with the format's framing. It is how FlowCabal
// estimates what a call sends, and how the scripted endpoint counts what
// it receives, so that estimates can be checked against it.
func (c *Counter) CountChat(msgs []ChatMessage) (int, error) {
	total := replyPriming
	for _, m := range msgs {
		r, err := c.Count(m.Role)
		if err != nil {
			return 0, err
		}
		n, err := c.Count(m.Content)
		if err != nil {
			return 0, err
		}
		total += perMessage + r + n
	}
	return total, nil
}
