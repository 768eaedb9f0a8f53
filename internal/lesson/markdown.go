package lesson

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"go.abhg.dev/goldmark/frontmatter"
)

// Markdown returns the goldmark converter lessons are read with: GitHub-flavoured Markdown (tables,
// task lists, strikethrough, autolinks), YAML front matter and heading ids. Renderers use it too, with
// a fresh IDs per document:
//
//	md := lesson.Markdown()
//	doc := md.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext(parser.WithIDs(lesson.NewIDs()))))
func Markdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM, &frontmatter.Extender{}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
}

// IDs gives headings ids made from their text the way GitHub does, Cyrillic kept: lower case, every
// character that is not a letter, a digit, "_", "-" or a space dropped, spaces turned into "-".
// "## Таймаут: не чакай вечно" gets "таймаут-не-чакай-вечно"; a second heading with the same text
// gets "-1" appended, a third "-2". It implements goldmark's parser.IDs.
type IDs struct {
	used map[string]bool
}

// NewIDs returns an empty set of ids, for one document.
func NewIDs() *IDs { return &IDs{used: map[string]bool{}} }

var _ parser.IDs = (*IDs)(nil)

// Slug turns a heading's text into the base of its id.
func Slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Generate returns a new unique id for a heading whose text is value.
func (s *IDs) Generate(value []byte, kind ast.NodeKind) []byte {
	base := Slug(string(value))
	if base == "" {
		base = "heading"
		if kind != ast.KindHeading {
			base = strings.ToLower(kind.String())
		}
	}
	id := base
	for i := 1; s.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	s.used[id] = true
	return []byte(id)
}

// Put records an id given by hand, so that no generated id repeats it.
func (s *IDs) Put(value []byte) { s.used[string(value)] = true }
