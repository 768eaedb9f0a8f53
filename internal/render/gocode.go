package render

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Span is a piece of one line of code and the class of its token: chroma's short names, which the
// browser's stylesheet and the editor's own highlighter in app.js use too ("k" keyword, "kd"
// declaration keyword, "kn" package and import, "kt" built-in type, "kc" true, false, iota and nil,
// "nb" built-in function, "nf" function, "nx" other name, "s" string, "sc" rune, "m…" numbers, "o"
// operator, "p" punctuation, "c1", "cm", "cp" comments). Class is "" for white space and for plain
// text.
type Span struct {
	Class string
	Text  string
}

// plainLang reports whether a fenced block's language is shown as plain text.
func plainLang(lang string) bool {
	switch strings.ToLower(lang) {
	case "go", "golang":
		return false
	}
	return true
}

// Lines splits code in lang into lines of spans, without the newlines. Go is tokenised by
// go/scanner; any other language is one plain span per line.
func Lines(lang, code string) [][]Span {
	code = strings.TrimSuffix(code, "\n")
	if plainLang(lang) {
		var lines [][]Span
		for _, l := range strings.Split(code, "\n") {
			lines = append(lines, plainLine(l))
		}
		return lines
	}
	return goLines(code)
}

func plainLine(s string) []Span {
	if s == "" {
		return nil
	}
	return []Span{{Text: s}}
}

// goLines tokenises Go source (a snippet need not be a whole file: go/scanner reads tokens, not
// declarations) and cuts the spans at newlines, so that a raw string or a comment over several lines
// keeps its class on each.
func goLines(code string) [][]Span {
	src := []byte(code)
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
	lines := [][]Span{nil}
	add := func(class, text string) {
		for i, part := range strings.Split(text, "\n") {
			if i > 0 {
				lines = append(lines, nil)
			}
			if part == "" {
				continue
			}
			cur := &lines[len(lines)-1]
			if n := len(*cur); n > 0 && (*cur)[n-1].Class == class {
				(*cur)[n-1].Text += part
				continue
			}
			*cur = append(*cur, Span{Class: class, Text: part})
		}
	}
	type tok struct {
		off int
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue // inserted by the scanner, not in the source
		}
		toks = append(toks, tok{file.Offset(pos), t, lit})
	}
	at := 0
	for i, t := range toks {
		if t.off < at { // cannot happen with go/scanner, but never write text twice
			continue
		}
		add("", code[at:t.off])
		text := t.lit
		if text == "" || !t.tok.IsLiteral() && t.tok != token.COMMENT && !t.tok.IsKeyword() && t.tok != token.IDENT {
			text = t.tok.String()
		}
		if t.tok == token.ILLEGAL {
			text = code[t.off : t.off+max(len(t.lit), 1)]
		}
		end := min(t.off+len(text), len(code))
		if code[t.off:end] != text { // a comment's \r stripped, or the like: take the source as it is
			text = code[t.off:end]
		}
		next := token.ILLEGAL
		gap := ""
		if i+1 < len(toks) {
			next = toks[i+1].tok
			gap = code[end:toks[i+1].off]
		}
		add(goClass(t.tok, text, next == token.LPAREN && strings.TrimSpace(gap) == ""), text)
		at = end
	}
	add("", code[at:])
	return lines
}

var (
	builtinTypes = set("bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable")
	builtinFuncs = set("append cap clear close complex copy delete imag len make max min new panic print println real recover")
	declKeywords = set("var func struct map chan type interface const")
	constants    = set("true false iota nil")
)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// goClass is the class of a token, as chroma's Go lexer gives it (and app.js copies).
func goClass(t token.Token, text string, called bool) string {
	switch {
	case t == token.COMMENT:
		switch {
		case strings.HasPrefix(text, "/*"):
			return "cm"
		case len(text) > 2 && text[2] != ' ' && text[2] != '\t':
			return "cp" // //go:build and the like
		}
		return "c1"
	case t == token.PACKAGE || t == token.IMPORT:
		return "kn"
	case t.IsKeyword() && declKeywords[text]:
		return "kd"
	case t.IsKeyword():
		return "k"
	case t == token.IDENT:
		switch {
		case constants[text]:
			return "kc"
		case called && (builtinFuncs[text] || builtinTypes[text]):
			return "nb"
		case builtinTypes[text]:
			return "kt"
		case called:
			return "nf"
		}
		return "nx"
	case t == token.STRING:
		return "s"
	case t == token.CHAR:
		return "sc"
	case t == token.FLOAT:
		return "mf"
	case t == token.IMAG:
		return "m"
	case t == token.INT:
		return intClass(text)
	case t == token.ILLEGAL:
		return "err"
	case t.IsOperator():
		return opClass(text)
	}
	return ""
}

func intClass(text string) string {
	switch {
	case len(text) > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'):
		return "mh"
	case len(text) > 1 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'):
		return "mb"
	case len(text) > 1 && text[0] == '0':
		return "mo"
	}
	return "mi"
}

// opClass follows chroma: brackets, separators and the one-character comparisons and assignment are
// punctuation, the rest operators.
func opClass(text string) string {
	if len(text) == 1 && strings.Contains("|^<>=!()[]{}.,;:~", text) {
		return "p"
	}
	return "o"
}
