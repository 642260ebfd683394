package factcheck

// IsOrdinaryWord reports whether w, as written, is an ordinary English
// word of the shipped lists (data/words.txt.gz, any case) or one of the
// capitalised words that name no person or place (data/extra-words.txt:
// months, days, "God", nationalities, forms of address). Other packages
// that tell names from words (agent/entitysuggest) share the lists this
// way rather than shipping a second copy.
func IsOrdinaryWord(w string) bool { return loadWords().has(w) }

// IsCapitalisedNonName reports whether w is one of the capitalised words
// of data/extra-words.txt: written with a capital, yet no name of a person
// or place ("Monday", "December", "English", "God").
func IsCapitalisedNonName(w string) bool { return loadWords().extra[w] }
