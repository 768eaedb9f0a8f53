package lexers

import (
	"embed"
	"io/fs"

	"github.com/alecthomas/chroma/v2"
)

//go:embed embedded
var embedded embed.FS

// GlobalLexerRegistry is the global LexerRegistry of Lexers.
//
// workbook patch: the embedded XML lexers are parsed at the registry's first lookup, not at
// package initialisation (see WORKBOOK.md). Until then its Lexers field holds only the lexers
// registered so far, those written in Go among them.
var GlobalLexerRegistry = chroma.NewLazyLexerRegistry(func(reg *chroma.LexerRegistry) {
	paths, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		panic(err)
	}
	for _, path := range paths {
		lexer := chroma.MustNewXMLLexer(embedded, path)
		if analyser := xmlAnalysers[lexer.Config().Name]; analyser != nil {
			lexer.SetAnalyser(analyser)
		}
		for _, alias := range lexer.Config().Aliases {
			if analyser := xmlAnalysers[alias]; analyser != nil {
				lexer.SetAnalyser(analyser)
			}
		}
		reg.Register(lexer)
	}
})

// xmlAnalysers holds the analysers written in Go for lexers defined in XML, by the lexer's name or
// alias; the registry's load sets them on the lexers as it parses them.
//
// workbook patch: upstream's init functions looked the lexers up with Get, which would now load
// the whole registry at initialisation; they call analyseXML instead.
var xmlAnalysers = map[string]func(text string) float32{}

// analyseXML sets analyser on the XML lexer called name (its name or an alias) when it is loaded.
func analyseXML(name string, analyser func(text string) float32) {
	xmlAnalysers[name] = analyser
}

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return GlobalLexerRegistry.Names(withAliases)
}

// Aliases of all the lexers, and skip those lexers who do not have any aliases,
// or show their name instead
func Aliases(skipWithoutAliases bool) []string {
	return GlobalLexerRegistry.Aliases(skipWithoutAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return GlobalLexerRegistry.Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return GlobalLexerRegistry.MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return GlobalLexerRegistry.Match(filename)
}

// Register a Lexer with the global registry.
func Register(lexer chroma.Lexer) chroma.Lexer {
	return GlobalLexerRegistry.Register(lexer)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return GlobalLexerRegistry.Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{`.+`, chroma.Text, nil},
			{`\n`, chroma.Text, nil},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
