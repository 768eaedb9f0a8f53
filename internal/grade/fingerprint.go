package grade

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Print is what copy detection knows of a program: a hash of its declarations, each normalised (no
// comments, no layout, identifiers renamed in order of first use), with the starter's declarations
// left out and the rest sorted, so that reformatting, renaming and reordering do not change it; and
// how many tokens went into it, so that a tiny difference from the starter is not taken for a copy.
type Print struct {
	Hash   string `json:"hash,omitempty"`
	Tokens int    `json:"tokens"`
}

// minCopyTokens is the least amount of a student's own code (beyond the starter) that two programs
// must share to be suspected of being copies.
const minCopyTokens = 20

// Fingerprint computes the Print of a program, read as what it does (what never runs left out, see
// normal.go). Declarations whose normalised form is in exclude (the
// starter's, from DeclForms) do not count. A program of nothing but excluded declarations has an
// empty Hash.
func Fingerprint(src Source, exclude map[string]bool) Print {
	return printOf(declForms(src, true), exclude)
}

// plainPrint is the Print of a program read whole, the declarations that never run included: what
// tells the starter as it was handed out (a starter with functions of the student's own beside it,
// called or not, is not the starter).
func plainPrint(src Source) Print { return printOf(DeclForms(src), nil) }

// printOf is the Print of a program's declarations (forms), those in exclude left out.
func printOf(forms []string, exclude map[string]bool) Print {
	var own []string
	tokens := 0
	for _, f := range forms {
		if exclude[f] {
			continue
		}
		own = append(own, f)
		tokens += strings.Count(f, " ") + 1
	}
	if len(own) == 0 {
		return Print{}
	}
	sort.Strings(own)
	sum := sha256.Sum256([]byte(strings.Join(own, "\n")))
	return Print{Hash: hex.EncodeToString(sum[:])[:24], Tokens: tokens}
}

// DeclForms returns the normalised form of every top-level declaration of a program but its imports
// and its blank ones (var _ = 0): its tokens without comments, layout or statements that do nothing,
// what is written in two ways read in one (noise, normal.go), with every identifier that is not
// predeclared, not a package's name and not a name selected from a package renamed to its order of
// first use within the declaration (v1, v2, …), and the qualifier of a package of the program's own
// module dropped. A file that does not parse contributes its tokens as one declaration. Every
// declaration is read, used or not: this is what the course's code (a starter) is read as.
func DeclForms(src Source) []string { return declForms(src, false) }

// declForms is DeclForms; live leaves out the declarations that never run (see unusedDecls).
func declForms(src Source, live bool) []string {
	p := parseProgram(src, live)
	var forms []string
	for _, name := range fileNames(src) {
		data := p.src.Files[name]
		f := p.files[name]
		if f == nil {
			forms = append(forms, normalize(data, span{0, len(data)}, normCtx{}))
			continue
		}
		imports, locals := fileImports(f, src)
		file := p.fset.File(f.Pos())
		ctx := normCtx{lines: lineStarts(data), edits: noise(f, file, p, imports), imports: imports, locals: locals, consts: p.consts, declared: p.declared}
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.IMPORT || blankDecl(gd)) {
				continue
			}
			if form := normalize(data, span{file.Offset(d.Pos()), file.Offset(d.End())}, ctx); form != "" {
				forms = append(forms, form)
			}
		}
	}
	return forms
}

// normalize renders the tokens of a declaration as one line (scanNormal, names numbered).
func normalize(data []byte, d span, ctx normCtx) string {
	toks := scanNormal(data, d, ctx, true)
	texts := make([]string, len(toks))
	for i, t := range toks {
		texts[i] = t.text
	}
	return strings.Join(texts, " ")
}

// wordless is what a string literal says beyond its words: its printf verbs and its numbers, in
// order. The words, and the punctuation around them, are what a translation changes: a program
// translated from Bulgarian to Russian (or to English) keeps its print, while the numbers and the
// verbs it prints with stay part of it. Every correct program of an exercise prints the same
// transcripts, so the words told copies apart no better than the code around them does.
func wordless(lit string) string {
	s, err := strconv.Unquote(lit)
	if err != nil {
		return lit
	}
	var parts []string
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; {
		case r == '%':
			// A printf verb: flags, width and precision, then the verb's letter.
			j := i + 1
			for j < len(rs) && strings.ContainsRune("+-# 0123456789.*[]", rs[j]) {
				j++
			}
			if j < len(rs) {
				j++
			}
			parts = append(parts, string(rs[i:j]))
			i = j - 1
		case unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) && unicode.IsDigit(rs[j]) {
				j++
			}
			parts = append(parts, string(rs[i:j]))
			i = j - 1
		}
	}
	return strconv.Quote(strings.Join(parts, " "))
}

var predeclared = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64
		int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr
		true false iota nil
		append cap clear close complex copy delete imag len make max min new panic print println real recover
		main init _`) {
		predeclared[n] = true
	}
}
