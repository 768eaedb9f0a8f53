package lesson

import "github.com/yuin/goldmark/ast"

// Lesson is one parsed lesson file: its front matter, its Markdown tree and the elements the engine
// checks, each with the line of the file it starts on.
type Lesson struct {
	File     string   // the name problems are reported under, e.g. lessons/slow-neighbour/bg.md
	Lang     string   // bg or ru, from the file name ("" when the name says neither)
	Meta     Meta     // the front matter
	Source   []byte   // the file, with CRLF turned into LF
	Doc      ast.Node // the goldmark tree; headings carry their ids; quizzes' explanations taken out (see Quiz)
	Blocks   []*Block // fenced blocks the engine knows (go, output, choice), in reading order
	Quizzes  []*Quiz  // in reading order
	Headings []Heading
}

// Meta is a lesson's front matter.
type Meta struct {
	Title     string   `yaml:"title"`
	Summary   string   `yaml:"summary"`
	Order     int      `yaml:"order"`
	Exercises []string `yaml:"exercises"`
	Requires  []string `yaml:"requires"`
}

// Kind is what a fenced block is to the engine.
type Kind int

// The kinds of blocks.
const (
	GoBlock     Kind = iota + 1 // ```go program=NAME [from=OTHER] [hidden]
	OutputBlock                 // ```output [hidden] [program=NAME]
	FixBlock                    // ```go fix, inside a bug quiz
	ChoiceBlock                 // ```choice [correct], inside a predict quiz
)

func (k Kind) String() string {
	switch k {
	case GoBlock:
		return "go"
	case OutputBlock:
		return "output"
	case FixBlock:
		return "go fix"
	case ChoiceBlock:
		return "choice"
	}
	return "?"
}

// Block is a fenced block the engine reads.
type Block struct {
	Kind     Kind
	Line     int    // line of the opening fence
	Info     string // the info string as written
	Program  string // program=NAME (for an output block, the program it shows, resolved)
	From     string // from=OTHER
	Hidden   bool   // hidden: checked, not shown
	Virtual  bool   // virtual: the program runs in virtual time (see VirtualMark)
	Correct  bool   // choice correct
	Text     string // the content, each line ending in "\n"
	Why      string // choice block: the Markdown after <!-- why --> in the paragraph below it, or ""
	WhyLine  int    // the line of that <!-- why -->, 0 when there is none
	Quiz     *Quiz  // the quiz holding the block, or nil
	Node     *ast.FencedCodeBlock
	explicit bool // output block with its own program=
}

// CodeLine is the line of the file holding the block's first line of content.
func (b *Block) CodeLine() int { return b.Line + 1 }

// QuizKind is the kind of a quiz.
type QuizKind string

// The kinds of quizzes.
const (
	Choice  QuizKind = "choice"  // multiple choice: a task list with one [x]
	Predict QuizKind = "predict" // predict the output: go blocks, then choice blocks
	Bug     QuizKind = "bug"     // find the buggy line: a go block and a go fix block
	Fill    QuizKind = "fill"    // fill in the blank: a go block with ___ and an output block
)

// Quiz is one quiz, between <!-- quiz: KIND ... --> and <!-- /quiz -->.
type Quiz struct {
	Kind     QuizKind
	Line     int      // line of the opening comment
	EndLine  int      // line of the closing comment
	BugLine  int      // bug: the line of the go block (from 1) that holds the bug
	Answer   string   // fill: what goes into the blank
	Question string   // the question as plain text (escapes resolved, inline marks dropped)
	Options  []Option // choice: the task list items
	Blocks   []*Block // the fenced blocks inside the quiz, in order
	Open     ast.Node // the opening comment's node
	Close    ast.Node // the closing comment's node

	// Explain is the explanation shown after any answer, right or wrong: the Markdown between
	// <!-- explain --> and <!-- /quiz -->, "" when the quiz has none. ExplainLine is the line of
	// <!-- explain -->, 0 when there is none.
	Explain     string
	ExplainLine int
}

// Option is an answer of a multiple-choice quiz.
type Option struct {
	Line    int
	Text    string // the answer as plain text, its explanation left out
	Correct bool
	Why     string // the Markdown after <!-- why --> on the item's continuation line, or ""
	WhyLine int    // the line of that <!-- why -->, 0 when there is none
}

// Heading is a heading of the lesson with the id it gets.
type Heading struct {
	Level int
	Line  int
	Text  string
	ID    string
}

// Right returns the index of the right answer of a choice or predict quiz, or -1.
func (q *Quiz) Right() int {
	switch q.Kind {
	case Choice:
		for i, o := range q.Options {
			if o.Correct {
				return i
			}
		}
	case Predict:
		i := 0
		for _, b := range q.Blocks {
			if b.Kind != ChoiceBlock {
				continue
			}
			if b.Correct {
				return i
			}
			i++
		}
	}
	return -1
}

// Why returns the explanation of answer i (from 0) of a choice or predict quiz: why that option is
// right or wrong. It is "" when the option has none or i is out of range.
func (q *Quiz) Why(i int) string {
	switch q.Kind {
	case Choice:
		if i >= 0 && i < len(q.Options) {
			return q.Options[i].Why
		}
	case Predict:
		if c := q.Choices(); i >= 0 && i < len(c) {
			return c[i].Why
		}
	}
	return ""
}

// Choices returns the choice blocks of a predict quiz.
func (q *Quiz) Choices() []*Block { return q.blocks(ChoiceBlock) }

// GoBlocks returns the go blocks of a quiz.
func (q *Quiz) GoBlocks() []*Block { return q.blocks(GoBlock) }

func (q *Quiz) blocks(k Kind) []*Block {
	var list []*Block
	for _, b := range q.Blocks {
		if b.Kind == k {
			list = append(list, b)
		}
	}
	return list
}
