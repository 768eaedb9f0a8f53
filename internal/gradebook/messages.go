package gradebook

import (
	"errors"

	"github.com/workbook-course/workbook/internal/grade"
	"github.com/workbook-course/workbook/internal/report"
)

// Message is what the instructor reads for an error of CheckOut, Build or Write: book_err_CODE
// for an *Error, book_err_tool for any other (the tool could not read or write).
func Message(err error) grade.Message {
	var e *Error
	if errors.As(err, &e) {
		return grade.Message{ID: "book_err_" + e.Code, Args: []any{"Report", e.Report, "Student", report.EscapeLine(e.Student),
			"Detail", report.EscapeLine(e.Detail)}}
	}
	return grade.Message{ID: "book_err_tool", Args: []any{"Err", report.EscapeLine(err.Error())}}
}
