package lesson

import (
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/workbook-course/workbook/checker"
)

// Code names a kind of problem. It is the machine part of an Error: the CLI turns it into a message in
// the user's language (message ID "lesson_" + code), with the same named values as the English text.
type Code string

// The problems the parser, the assembler, the runner and the parity check report.
const (
	// Markdown and front matter.
	CodeFrontMatter      Code = "front_matter"        // {{.Err}}
	CodeNoFrontMatter    Code = "no_front_matter"     //
	CodeUnclosedFront    Code = "unclosed_front"      //
	CodeMissingField     Code = "missing_field"       // {{.Field}}
	CodeUnclosedFence    Code = "unclosed_fence"      //
	CodeBadInfo          Code = "bad_info"            // {{.Word}} {{.Info}}
	CodeNoProgramName    Code = "no_program_name"     //
	CodeBadProgramName   Code = "bad_program_name"    // {{.Name}}
	CodeFromUnknown      Code = "from_unknown"        // {{.Name}}
	CodeFromLate         Code = "from_late"           // {{.Name}} {{.Line}}
	CodeOutputNoProgram  Code = "output_no_program"   //
	CodeOutputUnknown    Code = "output_unknown"      // {{.Name}}
	CodeOutsideQuiz      Code = "outside_quiz"        // {{.Info}}
	CodeQuizUnclosed     Code = "quiz_unclosed"       //
	CodeQuizStray        Code = "quiz_stray"          //
	CodeQuizNested       Code = "quiz_nested"         // {{.Line}}
	CodeQuizKind         Code = "quiz_kind"           // {{.Kind}}
	CodeQuizAttr         Code = "quiz_attr"           // {{.Kind}} {{.Attr}}
	CodeQuizInline       Code = "quiz_inline"         //
	CodeQuizNoQuestion   Code = "quiz_no_question"    //
	CodeChoiceRight      Code = "choice_right"        // {{.Count}}
	CodeChoiceFew        Code = "choice_few"          // {{.Count}}
	CodeChoiceTaskList   Code = "choice_task_list"    //
	CodePredictBlocks    Code = "predict_blocks"      //
	CodePredictRight     Code = "predict_right"       // {{.Count}}
	CodeBugBlocks        Code = "bug_blocks"          //
	CodeBugLine          Code = "bug_line"            // {{.Line}} {{.Lines}}
	CodeFillBlocks       Code = "fill_blocks"         //
	CodeFillNoBlank      Code = "fill_no_blank"       //
	CodeFillAnswerBlank  Code = "fill_answer_blank"   //
	CodeBlockInWrongQuiz Code = "block_in_wrong_quiz" // {{.Info}} {{.Kind}}
	CodeCodeWide         Code = "code_wide"           // {{.Width}} {{.Max}}
	CodeWhyStray         Code = "why_stray"           // {{.Marker}}
	CodeWhyEmpty         Code = "why_empty"           //
	CodeExplainTwice     Code = "explain_twice"       // {{.Line}}
	CodeExplainEmpty     Code = "explain_empty"       //

	// Explanations that are missing (Explained) or differ between the languages (Parity).
	CodeQuizNoExplain Code = "quiz_no_explain" //
	CodeOptionNoWhy   Code = "option_no_why"   //

	// Assembling programs.
	CodeGoSyntax      Code = "go_syntax"      // {{.Err}}
	CodeNoDecl        Code = "no_decl"        //
	CodePartial       Code = "partial"        // {{.Line}} {{.Names}}
	CodeNoMain        Code = "no_main"        // {{.Name}}
	CodeImports       Code = "imports"        // {{.Err}}
	CodeFixSyntax     Code = "fix_syntax"     // {{.Err}}
	CodeBuild         Code = "build"          // {{.Name}}
	CodeRun           Code = "run"            // {{.Name}} {{.Status}}; Verdict (timeout, crash, output_limit, exit) and Exit say it for translation
	CodeOutput        Code = "output"         // {{.Name}} {{.Line}}
	CodePredictWrong  Code = "predict_wrong"  // {{.Name}} {{.Line}}
	CodePredictMatch  Code = "predict_match"  // {{.Name}} {{.Line}}
	CodeBugSame       Code = "bug_same"       //
	CodeBugFixBroken  Code = "bug_fix_broken" //
	CodeMissingLang   Code = "missing_lang"   // {{.File}}
	CodeNoExercise    Code = "no_exercise"    // {{.Name}}
	CodeNoTopic       Code = "no_topic"       // {{.Name}}
	CodeParityMeta    Code = "parity_meta"    // {{.Field}} {{.Here}} {{.There}} {{.File}}
	CodeParityBlocks  Code = "parity_blocks"  // {{.Here}} {{.There}} {{.File}}
	CodeParityQuizzes Code = "parity_quizzes" // {{.Here}} {{.There}} {{.File}}
	CodeParityBlock   Code = "parity_block"   // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityShape   Code = "parity_shape"   // {{.Here}} {{.There}} {{.File}} {{.Line}} {{.At}}
	CodeParityNumbers Code = "parity_numbers" // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityKind    Code = "parity_kind"    // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityAttr    Code = "parity_attr"    // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityAnswers Code = "parity_answers" // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityRight   Code = "parity_right"   // {{.Here}} {{.There}} {{.File}} {{.Line}}
	CodeParityExplain Code = "parity_explain" // {{.Here}} {{.There}} {{.File}} {{.Line}}
)

// English is the English text of every Code: a text/template over the Error's named values. The CLI's
// message files say the same in every language (a test keeps the English ones equal to these).
var English = map[Code]string{
	CodeFrontMatter:      "the front matter is not valid YAML: {{.Err}}",
	CodeNoFrontMatter:    "the lesson has no front matter: it must open with a --- line, then title, summary and order, then ---",
	CodeUnclosedFront:    "the front matter opened here is never closed with a --- line",
	CodeMissingField:     "the front matter has no {{.Field}}",
	CodeUnclosedFence:    "the code block opened here is never closed: add a line of ``` after its last line",
	CodeBadInfo:          "unknown word {{.Word}} in the info string \"{{.Info}}\"",
	CodeNoProgramName:    "a go block needs a program: write ```go program=NAME",
	CodeBadProgramName:   "program name {{.Name}} must be a Latin identifier (letters, digits, _)",
	CodeFromUnknown:      "from={{.Name}} names no program shown before this block",
	CodeFromLate:         "from= only goes on the first block of a program, and program {{.Name}} began at line {{.Line}}",
	CodeOutputNoProgram:  "an output block needs a program block before it (or program=NAME)",
	CodeOutputUnknown:    "output of program {{.Name}}, but no block of that program comes before it",
	CodeOutsideQuiz:      "a ```{{.Info}} block belongs inside a quiz",
	CodeQuizUnclosed:     "the quiz opened here is never closed: add <!-- /quiz --> after it",
	CodeQuizStray:        "<!-- /quiz --> closes no quiz",
	CodeQuizNested:       "a quiz opens inside the quiz opened at line {{.Line}}: close that one first with <!-- /quiz -->",
	CodeQuizKind:         "unknown quiz kind \"{{.Kind}}\": use choice, predict, bug line=N or fill answer=TEXT",
	CodeQuizAttr:         "a {{.Kind}} quiz needs {{.Attr}} in its opening comment",
	CodeQuizInline:       "a quiz comment must stand on a line of its own",
	CodeQuizNoQuestion:   "the quiz has no question: write it as a paragraph right after the opening comment",
	CodeChoiceRight:      "a choice quiz needs exactly one right answer marked [x]; it has {{.Count}}",
	CodeChoiceFew:        "a choice quiz needs at least two answers; it has {{.Count}}",
	CodeChoiceTaskList:   "a choice quiz needs its answers as a task list: - [ ] wrong, - [x] right",
	CodePredictBlocks:    "a predict quiz needs a go block and then at least two ```choice blocks",
	CodePredictRight:     "a predict quiz needs exactly one ```choice correct block; it has {{.Count}}",
	CodeBugBlocks:        "a bug quiz needs one go block and then one ```go fix block",
	CodeBugLine:          "line={{.Line}} is outside the go block (its lines are 1 to {{.Lines}})",
	CodeFillBlocks:       "a fill quiz needs one go block with the blank ___ and then an output block",
	CodeFillNoBlank:      "the go block of a fill quiz has no blank ___",
	CodeFillAnswerBlank:  "answer= is empty",
	CodeBlockInWrongQuiz: "a ```{{.Info}} block has no place in a {{.Kind}} quiz",
	CodeCodeWide:         "this line of code is {{.Width}} columns wide (a tab counts 4): keep it within {{.Max}}, so that it stands whole in an 80-column terminal",
	CodeWhyStray:         "<!-- {{.Marker}} --> is out of place: <!-- why --> opens an indented line right under a choice option or the paragraph right after a ```choice block, <!-- explain --> a line of its own at the end of a quiz, once",
	CodeWhyEmpty:         "<!-- why --> explains nothing: write why this answer is right or wrong after it",
	CodeExplainTwice:     "the quiz already has its <!-- explain --> at line {{.Line}}",
	CodeExplainEmpty:     "<!-- explain --> is followed by no explanation: write it before <!-- /quiz -->",
	CodeQuizNoExplain:    "the quiz has no explanation: end it with a line <!-- explain --> and a paragraph shown after any answer",
	CodeOptionNoWhy:      "this answer has no explanation: add an indented line under it that starts with <!-- why -->",

	CodeGoSyntax:      "Go syntax error: {{.Err}}",
	CodeNoDecl:        "the block holds no Go declaration",
	CodePartial:       "this replaces the declaration at line {{.Line}}, which also declares {{.Names}}: repeat the whole declaration",
	CodeNoMain:        "program {{.Name}} has no func main, so its code is never compiled: add one (hidden if need be)",
	CodeImports:       "the imports could not be fixed: {{.Err}}",
	CodeFixSyntax:     "with the go fix block in place the program is not valid Go: {{.Err}}",
	CodeBuild:         "program {{.Name}} does not build",
	CodeRun:           "program {{.Name}} did not run to a clean exit: {{.Status}}",
	CodeOutput:        "program {{.Name}} prints something else here (line {{.Line}} of the output block)",
	CodePredictWrong:  "the choice marked correct is not what program {{.Name}} prints (first difference at its line {{.Line}})",
	CodePredictMatch:  "this wrong choice is exactly what program {{.Name}} prints (the correct one is at line {{.Line}})",
	CodeBugSame:       "the buggy version and the fixed one print the same: the quiz shows no bug",
	CodeBugFixBroken:  "the fixed version does not build or run",
	CodeMissingLang:   "the lesson has no {{.File}}: every lesson needs bg.md and ru.md",
	CodeNoExercise:    "exercises: {{.Name}} is not an exercise of the course",
	CodeNoTopic:       "requires: {{.Name}} is not a lesson of the course",
	CodeParityMeta:    "{{.Field}} is {{.Here}} here but {{.There}} in {{.File}}",
	CodeParityBlocks:  "blocks of code and output: {{.Here}} here, {{.There}} in {{.File}}",
	CodeParityQuizzes: "quizzes: {{.Here}} here, {{.There}} in {{.File}}",
	CodeParityBlock:   "here {{.Here}}, but {{.There}} at {{.File}}:{{.Line}}",
	CodeParityShape:   "the code differs from {{.File}}:{{.Line}} (comments and strings aside) at its line {{.At}}: {{.Here}} here, {{.There}} there",
	CodeParityNumbers: "the numbers differ from {{.File}}:{{.Line}}: {{.Here}} here, {{.There}} there",
	CodeParityKind:    "a {{.Here}} quiz here, a {{.There}} quiz at {{.File}}:{{.Line}}",
	CodeParityAttr:    "the quiz has {{.Here}} here but {{.There}} at {{.File}}:{{.Line}}",
	CodeParityAnswers: "answers: {{.Here}} here, {{.There}} at {{.File}}:{{.Line}}",
	CodeParityRight:   "answer {{.Here}} is the right one here, but answer {{.There}} at {{.File}}:{{.Line}}",
	CodeParityExplain: "explanations (<!-- explain --> and <!-- why -->): {{.Here}} here, {{.There}} at {{.File}}:{{.Line}}",
}

// Error is one problem with a lesson, at a line of a file. Its text starts with "file:line: ".
type Error struct {
	File   string
	Line   int
	Code   Code
	Args   map[string]any // the named values of the message
	Detail string         // a compiler log or a program's stderr, when there is one
	Diff   *checker.Diff  // for an output that differs: the first differing line
}

func newError(file string, line int, code Code, kv ...any) *Error {
	e := &Error{File: file, Line: line, Code: code, Args: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Args[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return e
}

// Message is the English text of the problem, without the location.
func (e *Error) Message() string {
	tmpl, ok := English[e.Code]
	if !ok {
		return string(e.Code)
	}
	t, err := template.New("").Option("missingkey=zero").Parse(tmpl)
	if err != nil {
		return tmpl
	}
	var b strings.Builder
	if err := t.Execute(&b, e.Args); err != nil {
		return tmpl
	}
	return b.String()
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message())
	if e.Diff != nil {
		s += fmt.Sprintf("\n\twant: %q\n\t got: %q", e.Diff.Want, e.Diff.Got)
	}
	if e.Detail != "" {
		s += "\n\t" + strings.ReplaceAll(strings.TrimRight(e.Detail, "\n"), "\n", "\n\t")
	}
	return s
}

// Errors is a list of problems; as an error it reads as one problem a line.
type Errors []*Error

func (l Errors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Sort orders the problems by file, then line.
func (l Errors) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].File != l[j].File {
			return l[i].File < l[j].File
		}
		return l[i].Line < l[j].Line
	})
}

// Err returns l as an error, or nil when it is empty.
func (l Errors) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
