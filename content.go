// Package workbook carries the course: the lessons, exercises and reference solutions, embedded so
// that the workbook binary is self-contained.
//
//	fsys := workbook.Content()
//	data, err := fs.ReadFile(fsys, "exercises/exercise-deadline/bg.md")
//
// Everything that reads course content (the CLI, the lesson engine, the web server) reads it through
// Content, so a binary installed with `go install` needs no clone of the repository.
package workbook

import (
	"embed"
	"io/fs"
)

//go:embed lessons exercises solutions
var content embed.FS

// Content returns the embedded course: the folders lessons/, exercises/ and solutions/.
func Content() fs.FS { return content }
