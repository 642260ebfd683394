// Package textsearch provides the lexical machinery Role A and the store
// share: folding of Chinese and Latin text to one comparable form
// (traditional to simplified, lower case), tokenisation of mixed Chinese
// and English into index terms (CJK character bigrams, stemmed English
// words without stop words), an incremental Okapi BM25 index that
// serialises to bytes, passage splitting, a mention matcher for entity
// names and aliases, and token counting with a real BPE tokenizer.
//
// Nothing here holds global mutable state. The expensive tables (the
// traditional-to-simplified map, the BPE vocabularies) live in values the
// caller creates once and passes around: a [Folder] and a [Counter]. Both
// load lazily on first use and are safe for concurrent use.
package textsearch
