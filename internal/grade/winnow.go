package grade

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"hash/fnv"
	"maps"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Winnowing, as MOSS does it (Schleimer, Wilkerson, Aiken, SIGMOD 2003): a program becomes a stream of
// normalised tokens (identifiers all alike, library calls kept, strings by their verbs and numbers,
// no comments or layout); every run of winnowK tokens is hashed, and of every winnowW hashes in a row
// the least is kept. Two programs that share a run of at least winnowK+winnowW-1 tokens share a
// fingerprint, wherever the run stands in each: inserted lines, reordered functions and renamed
// variables change little. What the starter, the hints' code or the reference solutions hold is
// nobody's own and does not count as shared.
const (
	winnowK = 12 // tokens per k-gram
	winnowW = 8  // k-grams per window
	// A pair is suspected when it shares at least minShared fingerprints of the students' own code
	// (and enough of them, see copies_link.go).
	minShared = 8
	// A program is called a copy of a reference solution when at least refSimilarity of its own
	// fingerprints are the reference's, or when it holds at least refContained of the reference's
	// own (the reference with code around it that does something: what does nothing is left out
	// already, see noise). A correct program written without the reference holds a fifth of it.
	refSimilarity = 0.9
	refContained  = 0.8
	maxCodeBytes  = 64 << 10 // of a program's text kept for the side-by-side view
)

// Winnow is what a student's program shows of itself for copy detection.
type Winnow struct {
	Marks []Mark `json:"marks"` // fingerprints of the student's own code, in order
	All   int    `json:"all"`   // fingerprints in all, the starter's and the hints' included
	// Reference is, for each language, the share of the program's fingerprints that are the
	// reference solution's (kept from refSimilarity on), or of the reference's that the program
	// holds (from refContained on), the larger.
	Reference map[string]float64 `json:"reference,omitempty"`
	Code      string             `json:"code,omitempty"` // the program's text, its files one after another
}

// Mark is one fingerprint: its hash and the lines (of Winnow.Code) its tokens span.
type Mark struct {
	H    uint32 `json:"h"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// CopyPair is two students whose own code shares fingerprints: the share of the smaller program's,
// and how many.
type CopyPair struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	Similarity float64 `json:"similarity"` // 0…1
	Shared     int     `json:"shared"`
	// LinesA and LinesB are the lines of each program (of Winnow.Code) that hold what they share,
	// as "3-9, 14".
	LinesA string `json:"lines_a,omitempty"`
	LinesB string `json:"lines_b,omitempty"`
}

type wtoken struct {
	text  string
	line  int
	chunk int // the top-level declaration it belongs to, in the order of the stream
}

// programText is the program's files one after another, each under a line that names it, and the
// line each file starts on.
func programText(src Source) (string, []string, map[string]int) {
	names := make([]string, 0, len(src.Files))
	for n := range src.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	start := map[string]int{}
	line := 1
	for _, n := range names {
		fmt.Fprintf(&b, "// ==== %s\n", n)
		line++
		start[n] = line
		data := string(src.Files[n])
		if !strings.HasSuffix(data, "\n") {
			data += "\n"
		}
		b.WriteString(data)
		line += strings.Count(data, "\n")
	}
	return b.String(), names, start
}

// wtokens is the normalised token stream of a program (or of a piece of code: a hint's snippet): the
// tokens of each top-level declaration of every file, what does nothing left out and what is written
// in two ways read in one (noise, normal.go), the declarations sorted by their tokens, so that
// moving a function, to another place or to another file or package of the module, changes
// nothing. live leaves out too what never runs (a student's program; the course's code is read
// whole).
func wtokens(src Source, live bool) []wtoken {
	_, names, start := programText(src)
	p := parseProgram(src, live)
	var chunks [][]wtoken
	for _, n := range names {
		chunks = append(chunks, fileChunks(p, n, start[n])...)
	}
	key := func(c []wtoken) string {
		var b strings.Builder
		for _, t := range c {
			b.WriteString(t.text)
			b.WriteByte(0)
		}
		return b.String()
	}
	keys := make([]string, len(chunks))
	for i, c := range chunks {
		keys[i] = key(c)
	}
	order := make([]int, len(chunks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	var out []wtoken
	for k, i := range order {
		for _, t := range chunks[i] {
			t.chunk = k
			out = append(out, t)
		}
	}
	return out
}

// normCtx is what scanNormal reads a file's tokens with: the edits of the file (noise), the names
// of its imports (see fileImports), those of the program's own packages, the program's constants.
type normCtx struct {
	lines    []int // the offsets the file's lines start at (lineStarts)
	edits    []edit
	imports  map[string]string
	locals   map[string]bool
	consts   map[string]constant.Value
	declared map[string]int // the program's names (see parsedProgram)
}

// lineStarts is the offsets the lines of data start at.
func lineStarts(data []byte) []int {
	lines := []int{0}
	for i, b := range data {
		if b == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// lineOf is the line (from 1) of the offset off of data.
func (ctx normCtx) lineOf(data []byte, off int) int {
	if ctx.lines == nil {
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	return sort.Search(len(ctx.lines), func(i int) bool { return ctx.lines[i] > off })
}

// fileChunks is the normalised tokens of the file name of p, one chunk per top-level declaration
// (but imports and blank declarations); a file that does not parse is one chunk of its tokens
// after its imports.
func fileChunks(p *parsedProgram, name string, firstLine int) [][]wtoken {
	// The imports (of a whole file; a hint's snippet has none) are left out, their names kept as
	// what a selector's left side may be; so are the standard library's commonest packages, for a
	// snippet's sake. The qualifier of a package of the program's own module is dropped: impl.Run
	// is Run moved to another package.
	data := p.src.Files[name]
	ctx := normCtx{lines: lineStarts(data), imports: map[string]string{}, locals: map[string]bool{}, consts: p.consts, declared: p.declared}
	for _, n := range stdPackages {
		ctx.imports[n] = n
	}
	addImports := func(f *ast.File) {
		imports, locals := fileImports(f, p.src)
		maps.Copy(ctx.imports, imports)
		maps.Copy(ctx.locals, locals)
	}
	var decls []span
	if f := p.files[name]; f != nil {
		addImports(f)
		file := p.fset.File(f.Pos())
		ctx.edits = noise(f, file, p, ctx.imports)
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.IMPORT || blankDecl(gd)) {
				continue
			}
			decls = append(decls, span{file.Offset(d.Pos()), file.Offset(d.End())})
		}
	} else if f, err := parser.ParseFile(token.NewFileSet(), "", data, parser.ImportsOnly); err == nil {
		addImports(f)
		skipTo := int(f.Name.End()) - int(f.FileStart)
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				skipTo = int(gd.End()) - int(f.FileStart)
			}
		}
		decls = []span{{skipTo, len(data)}}
	} else {
		decls = []span{{0, len(data)}}
	}
	var out [][]wtoken
	for _, d := range decls {
		var chunk []wtoken
		for _, t := range scanNormal(data, d, ctx, false) {
			chunk = append(chunk, wtoken{text: t.text, line: t.line + firstLine - 1})
		}
		if len(chunk) > 0 {
			out = append(out, chunk)
		}
	}
	return out
}

// ntoken is a token of scanNormal: its normalised text and its line in the file.
type ntoken struct {
	text string
	line int
}

// scanNormal is the normalised tokens of data[d.from:d.to]: no comments or layout, the edits of ctx
// read as they say (noise), every identifier "v" but predeclared names, package names (by their
// path, see fileImports) and what is selected from a package (with numbered, each other name "v1",
// "v2"… in the order of its first use instead), a name of a package imported with a dot selected
// from it, a constant as its value, a local package's
// qualifier dropped, literals by their values and strings by their verbs and numbers (litText),
// x++ as x += 1, a semicolon never doubled nor after { nor before } or ).
func scanNormal(data []byte, d span, ctx normCtx, numbered bool) []ntoken {
	// The declaration alone is scanned (it starts with a token, and ends with one), and the edits
	// from its first on: a file of many declarations is read in one pass, not one per declaration.
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, d.to-d.from)
	s.Init(file, data[d.from:d.to], nil, 0)
	firstLine := ctx.lineOf(data, d.from)
	var out []ntoken
	last := func() string {
		if len(out) == 0 {
			return ""
		}
		return out[len(out)-1].text
	}
	prevPkg, dropDot := false, false
	// Edits do not cross a top-level declaration: those before it end before it.
	ni := sort.Search(len(ctx.edits), func(i int) bool { return ctx.edits[i].from >= d.from })
	emitted := map[int]bool{}
	renamed := map[string]string{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := d.from + file.Offset(pos)
		if off >= d.to {
			break
		}
		line := firstLine + file.Line(pos) - 1
		if k, ok := inNoise(ctx.edits, &ni, off); ok {
			if !emitted[k] {
				emitted[k] = true
				for _, r := range ctx.edits[k].repl {
					out = append(out, ntoken{r, line})
				}
				prevPkg, dropDot = false, false
			}
			continue
		}
		text := ""
		switch {
		case tok == token.SEMICOLON:
			if l := last(); l == "" || l == ";" || l == "{" {
				continue
			}
			text = ";"
			prevPkg = false
		case tok == token.PERIOD && dropDot:
			dropDot = false
			continue
		case tok == token.IDENT:
			canon, isImport := ctx.imports[lit]
			v, isConst := ctx.consts[lit]
			switch {
			case ctx.locals[lit] && !prevPkg:
				dropDot = true
				continue
			case isImport && !prevPkg:
				out = append(out, ntoken{canon, line})
				prevPkg = true
				continue
			case prevPkg && last() == ".":
				text = lit
			case ctx.imports["."] != "" && last() != "." && token.IsExported(lit) && ctx.declared[lit] == 0:
				// Println of a package imported with a dot is fmt.Println.
				out = append(out, ntoken{ctx.imports["."], line}, ntoken{".", line})
				text = lit
			case isConst && last() != ".":
				text = constText(v)
			case predeclared[lit]:
				text = lit
			case numbered:
				v, ok := renamed[lit]
				if !ok {
					v = "v" + strconv.Itoa(len(renamed)+1)
					renamed[lit] = v
				}
				text = v
			default:
				text = "v"
			}
			prevPkg = false
		case tok.IsLiteral():
			text = litText(tok, lit)
			prevPkg = false
		case tok == token.INC || tok == token.DEC:
			// x++ is x += 1.
			op := "+="
			if tok == token.DEC {
				op = "-="
			}
			out = append(out, ntoken{op, line})
			text = "1"
			prevPkg = false
		default:
			// A semicolon may be left out before a closing ) or }: "{ x }" on one line is "{ x\n}".
			if (tok == token.RBRACE || tok == token.RPAREN) && last() == ";" {
				out = out[:len(out)-1]
			}
			text = tok.String()
			if tok != token.PERIOD {
				prevPkg = false
			}
		}
		dropDot = false
		out = append(out, ntoken{text, line})
	}
	// A trailing semicolon inserted at the end of the declaration says nothing.
	for len(out) > 0 && out[len(out)-1].text == ";" {
		out = out[:len(out)-1]
	}
	return out
}

// stdPackages are the packages a hint's snippet calls without importing them.
var stdPackages = []string{"fmt", "os", "strings", "strconv", "time", "math", "errors", "sort", "rand", "sync", "context", "bufio", "io", "flag", "slices", "maps"}

// winnow fingerprints a token stream.
func winnow(toks []wtoken) []Mark {
	if len(toks) < winnowK {
		return nil
	}
	n := len(toks) - winnowK + 1
	hashes := make([]uint32, n)
	for i := 0; i < n; i++ {
		h := fnv.New32a()
		for _, t := range toks[i : i+winnowK] {
			h.Write([]byte(t.text))
			h.Write([]byte{0})
		}
		hashes[i] = h.Sum32()
	}
	var marks []Mark
	last := -1
	w := min(winnowW, n)
	for start := 0; start+w <= n; start++ {
		best := start
		for i := start; i < start+w; i++ {
			if hashes[i] <= hashes[best] {
				best = i // the rightmost least hash
			}
		}
		if best != last {
			// The lines of the k-gram's first declaration (the stream is in the declarations' order,
			// not the file's).
			from, to := toks[best].line, toks[best].line
			for _, t := range toks[best : best+winnowK] {
				if t.chunk == toks[best].chunk {
					from, to = min(from, t.line), max(to, t.line)
				}
			}
			marks = append(marks, Mark{H: hashes[best], From: from, To: to})
			last = best
		}
	}
	return marks
}

// hashSet is the set of a program's fingerprints.
func hashSet(marks []Mark) map[uint32]bool {
	set := make(map[uint32]bool, len(marks))
	for _, m := range marks {
		set[m.H] = true
	}
	return set
}

// goBlock finds the Go code blocks of a hints file.
var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// HintCode returns the Go code blocks of a Markdown text (an exercise's hints) as one Source each.
func HintCode(markdown, lang string) []Source {
	var out []Source
	for _, m := range goBlock.FindAllStringSubmatch(markdown, -1) {
		out = append(out, Source{Lang: lang, Files: map[string][]byte{"hint.go": []byte(m[1])}})
	}
	return out
}

// winnower fingerprints students' programs with the course's own code left out.
type winnower struct {
	given map[uint32]bool            // the starters' and the hints' fingerprints
	base  map[uint32]bool            // those and the reference solutions'
	refs  map[string]map[uint32]bool // the reference solution's by language, less the given ones
}

func newWinnower(starters, hints, solutions []Source) *winnower {
	w := &winnower{given: map[uint32]bool{}, base: map[uint32]bool{}, refs: map[string]map[uint32]bool{}}
	for _, list := range [][]Source{starters, hints} {
		for _, s := range list {
			for h := range hashSet(winnow(wtokens(s, false))) {
				w.given[h], w.base[h] = true, true
			}
		}
	}
	for _, s := range solutions {
		ref := map[uint32]bool{}
		for h := range hashSet(winnow(wtokens(s, true))) {
			w.base[h] = true
			if !w.given[h] {
				ref[h] = true
			}
		}
		w.refs[s.Lang] = ref
	}
	return w
}

// of is a student's Winnow.
func (w *winnower) of(src Source) *Winnow {
	marks := winnow(wtokens(src, true))
	code, _, _ := programText(src)
	if len(code) > maxCodeBytes {
		code = code[:maxCodeBytes]
	}
	out := &Winnow{All: len(hashSet(marks)), Code: code, Marks: []Mark{}}
	// What the student did beyond the starter and the hints, against what the reference did.
	mine := map[uint32]bool{}
	for _, m := range marks {
		if !w.given[m.H] {
			mine[m.H] = true
		}
	}
	all := hashSet(marks)
	for lang, ref := range w.refs {
		n, in := 0, 0
		for h := range mine {
			if ref[h] {
				n++
			}
		}
		for h := range ref {
			if all[h] {
				in++
			}
		}
		share := 0.0
		if len(mine) >= minShared && float64(n)/float64(len(mine)) >= refSimilarity {
			share = float64(n) / float64(len(mine))
		}
		if len(ref) >= minShared && float64(in)/float64(len(ref)) >= refContained {
			// The reference whole, whatever else is around it.
			share = max(share, float64(in)/float64(len(ref)))
		}
		if share > 0 {
			if out.Reference == nil {
				out.Reference = map[string]float64{}
			}
			out.Reference[lang] = float64(int(share*1000)) / 1000
		}
	}
	for _, m := range marks {
		if !w.base[m.H] {
			out.Marks = append(out.Marks, m)
		}
	}
	return out
}

// SideLine is a line of a program in the side-by-side view, and whether it is part of what the pair
// shares.
type SideLine struct {
	N      int
	Text   string
	Shared bool
}

// sideBySide is the two programs of a pair, their shared lines marked.
func sideBySide(a, b *Winnow) ([]SideLine, []SideLine) {
	sa, sb := hashSet(a.Marks), hashSet(b.Marks)
	return markLines(a, sb), markLines(b, sa)
}

func markLines(w *Winnow, other map[uint32]bool) []SideLine {
	lines := strings.Split(strings.TrimSuffix(w.Code, "\n"), "\n")
	shared := make([]bool, len(lines)+2)
	for _, m := range w.Marks {
		if !other[m.H] {
			continue
		}
		for l := m.From; l <= m.To && l <= len(lines); l++ {
			shared[l] = true
		}
	}
	out := make([]SideLine, len(lines))
	for i, l := range lines {
		out[i] = SideLine{N: i + 1, Text: l, Shared: shared[i+1]}
	}
	return out
}

// maxPairsShown is how many pairs report.html shows side by side (the most similar first).
const maxPairsShown = 30

// htmlPair is a pair as report.html shows it.
type htmlPair struct {
	A, B        string
	Permille    int
	Shared      int
	Left, Right []SideLine
}

// htmlPairs are the report's pairs with their programs side by side.
func htmlPairs(rep *Report) []htmlPair {
	byName := map[string]*Winnow{}
	for _, st := range rep.Students {
		if st.Winnow != nil {
			byName[st.Name] = st.Winnow
		}
	}
	var out []htmlPair
	for _, p := range rep.Pairs {
		a, b := byName[p.A], byName[p.B]
		if a == nil || b == nil {
			continue
		}
		left, right := sideBySide(a, b)
		out = append(out, htmlPair{A: p.A, B: p.B, Permille: int(p.Similarity*1000 + 0.5), Shared: p.Shared, Left: left, Right: right})
		if len(out) == maxPairsShown {
			break
		}
	}
	return out
}
