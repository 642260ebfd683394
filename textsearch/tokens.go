package textsearch

import (
	"fmt"
	"strings"
	"sync"

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

// longText is the length above which Count splits the text at paragraph
// breaks: BPE pieces never cross a blank line followed by text, and the
// tokenizer's pre-split regular expression is markedly slower on one huge
// input than on many paragraphs.
const longText = 16 << 10

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
		cut := len(s)
		if cut > longText {
			// Split just after a "\n\n" at or beyond longText/2 so that each
			// piece ends with its blank line and the next starts with text.
			if i := strings.Index(s[longText/2:], "\n\n"); i >= 0 {
				cut = longText/2 + i + 2
				for cut < len(s) && s[cut] == '\n' {
					cut++
				}
			}
		}
		n, err := c.codec.Count(s[:cut])
		if err != nil {
			return 0, err
		}
		total += n
		s = s[cut:]
	}
	return total, nil
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
