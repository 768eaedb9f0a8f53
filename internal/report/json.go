package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/workbook-course/workbook/checker"
)

// JSON writes the result for programs (workbook check --json): indented, what a learner may not
// see left out (Result.Redacted), no raw DEL or C1 control of the program's reaching a terminal
// (EscapeJSON).
func JSON(w io.Writer, res *checker.Result) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.Redacted()); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(buf.Bytes()))
	return err
}
