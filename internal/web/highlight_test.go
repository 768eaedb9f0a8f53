package web

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestChromaRegistries checks, through the API workbook uses, that the patched chroma in
// third_party/chroma (whose registries are parsed on first use) answers as upstream's does: every
// embedded lexer and style is there, the lexers written in Go too, and the analysers that Go code
// sets on XML lexers are set.
func TestChromaRegistries(t *testing.T) {
	for _, tt := range []struct{ lookup, want string }{
		{"go", "Go"},                 // written in Go
		{"golang", "Go"},             // an alias
		{"javascript", "JavaScript"}, // XML
		{"JS", "JavaScript"},         // an alias, in another case
		{"bash", "Bash"},
		{"html", "HTML"}, // written in Go, delegating to XML lexers
		{"php", "PHP"},
		{"x.py", "Python"}, // by file name
	} {
		l := lexers.Get(tt.lookup)
		if l == nil || l.Config().Name != tt.want {
			t.Errorf("lexers.Get(%q) = %v, want %s", tt.lookup, l, tt.want)
		}
	}
	if n := len(lexers.Names(false)); n < 270 {
		t.Errorf("lexers.Names has %d lexers, want every embedded and Go-written one (about 280)", n)
	}
	if l := lexers.Match("main.go"); l == nil || l.Config().Name != "Go" {
		t.Errorf("lexers.Match(main.go) = %v, want Go", l)
	}
	if l := lexers.MatchMimeType("text/x-gosrc"); l == nil || l.Config().Name != "Go" {
		t.Errorf("lexers.MatchMimeType(text/x-gosrc) = %v, want Go", l)
	}
	for _, tt := range []struct{ text, want string }{
		{"$TTL 3600\n@ IN SOA ns.example.org. admin.example.org. (1 2 3 4 5)\n", "dns"},
		{"definition user {}\ndefinition doc {\n relation reader: user\n permission read = reader\n}\n", "Zed"},
	} {
		if l := lexers.Analyse(tt.text); l == nil || l.Config().Name != tt.want {
			t.Errorf("lexers.Analyse(%q) = %v, want %s (the analyser Go code sets on the XML lexer)", tt.text, l, tt.want)
		}
	}
	it, err := chroma.Coalesce(lexers.Get("html")).Tokenise(nil, "<script>var x = 1;</script>")
	if err != nil {
		t.Fatal(err)
	}
	var js bool
	for _, tok := range it.Tokens() {
		js = js || tok.Type == chroma.KeywordDeclaration && tok.Value == "var"
	}
	if !js {
		t.Errorf("HTML's <script> was not highlighted as JavaScript: %v", it.Tokens())
	}

	for _, name := range []string{"github", "github-dark", "monokai", "swapoff"} {
		if s := styles.Get(name); s == nil || s.Name != name {
			t.Errorf("styles.Get(%q) = %v", name, s)
		}
	}
	if s := styles.Get("no such style"); s != styles.Fallback || s.Name != "swapoff" {
		t.Errorf("an unknown style gives %v, want the fallback swapoff", s)
	}
	if n := len(styles.Names()); n < 60 {
		t.Errorf("styles.Names has %d styles, want every embedded one (67)", n)
	}
	mine := styles.Register(chroma.MustNewStyle("workbook-test", chroma.StyleEntries{chroma.Keyword: "#ff0000"}))
	if styles.Get("workbook-test") != mine || !strings.Contains(strings.Join(styles.Names(), " "), "workbook-test") {
		t.Error("a registered style is not found")
	}
}
