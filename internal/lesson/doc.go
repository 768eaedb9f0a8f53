// Package lesson reads the course's Markdown lessons and proves them: every Go block compiles and
// runs, every output shown is what the program prints, every quiz that can be checked by running code
// is, and the Bulgarian and Russian versions of a lesson teach the same programs.
//
//	l, err := lesson.Parse("lessons/slow-neighbour/bg.md", data) // err is an Errors: "file:line: …"
//	files, errs, err := lesson.Topic(fsys, "lessons/slow-neighbour", "lessons/slow-neighbour")
//	problems, err := lesson.Verify(ctx, &lesson.Runner{}, files)
//
// The format is the one lessons/README.md describes for authors. In short:
//
//   - Front matter (YAML between --- lines): title, summary, order, exercises, requires.
//   - ```go program=NAME [from=OTHER] [hidden]: top-level declarations of program NAME. Blocks of one
//     program build on each other in reading order; a declaration replaces an earlier one with the same
//     name (methods are named by receiver type and name). from= on a program's first block starts it as
//     a copy of OTHER as assembled so far. The engine adds package main and fixes the imports
//     (golang.org/x/tools/imports).
//   - ```output [hidden] [program=NAME]: the exact stdout of the most recent program (or of NAME) as
//     assembled at that point; a final newline is implied.
//   - Quizzes between <!-- quiz: KIND ... --> and <!-- /quiz -->, each comment on a line of its own:
//     choice (a task list, one [x]); predict (go blocks, then ```choice blocks, one ```choice correct);
//     bug line=N (a go block with the bug on its line N and a ```go fix block with the corrected
//     lines); fill answer=TEXT (a go block with the blank ___ and an output block for the filled
//     program). Each quiz ends with a line <!-- explain --> and the explanation shown after any answer
//     (Quiz.Explain); each option of a choice quiz has an indented line <!-- why --> … under it
//     (Option.Why), and a ```choice block may have a paragraph <!-- why --> … right after it
//     (Block.Why). Parse takes them out of Doc, so no renderer shows them with the question;
//     Explained reports those missing, Parity a quiz that explains more in one language.
//
// Parse checks the structure and reports every problem as an *Error whose text starts with
// "file:line:"; its Code and Args let a caller say the same in another language (English holds the
// English text). A Runner builds each distinct program once through checker.Build and runs it with
// Program.Run, a few at a time. Parity compares two languages of a lesson. IDs gives headings ids
// that keep Cyrillic letters, for every renderer of lessons; Markdown is the goldmark converter with
// the extensions lessons use.
package lesson
