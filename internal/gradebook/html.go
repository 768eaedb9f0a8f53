package gradebook

import (
	"html/template"
	"io"

	"github.com/workbook-course/workbook/internal/i18n"
)

// HTML writes book.html: the class × exercise table (a row per student, a column per exercise
// with its weight and the class's mean, the total last), its header and name column kept in view
// while it scrolls, in lang.
func (b *Book) HTML(w io.Writer, lang string) error {
	p := i18n.New(lang)
	funcs := template.FuncMap{
		"T":     func(id string, kv ...any) string { return p.T(id, kv...) },
		"score": func(v float64) string { return i18n.Score(lang, v) },
		"title": func(c Column) string { return c.Title(lang) },
	}
	t, err := template.New("book").Funcs(funcs).Parse(bookPage)
	if err != nil {
		return err
	}
	return t.Execute(w, map[string]any{"Lang": lang, "Book": b})
}

const bookPage = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{T "book_html_title"}}</title>
<style>
body { font: 14px/1.3 system-ui, sans-serif; margin: 1em; }
.wrap { overflow: auto; max-height: 90vh; }
table { border-collapse: separate; border-spacing: 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; white-space: nowrap; text-align: right; }
thead th { position: sticky; top: 0; background: #f4f4f4; vertical-align: bottom; }
th.name, td.name { position: sticky; left: 0; background: #fff; text-align: left; z-index: 1; }
thead th.name { z-index: 2; background: #f4f4f4; }
small { color: #666; font-weight: normal; }
td.pass { background: #e6f4e6; } td.fail { background: #fdf3e0; } td.error, td.missing { background: #fbe9e9; } td.unchanged { background: #f1ecd9; }
td.none { color: #999; } td.total { font-weight: bold; }
</style>
</head>
<body>
<h1>{{T "book_html_title"}}</h1>
<div class="wrap"><table>
<thead><tr><th class="name">{{T "book_html_student"}}</th>
{{range .Book.Exercises}}<th title="{{.Exercise}}">{{title .}}<br><small>{{T "book_html_weight"}} {{score .Weight}} · {{T "book_html_mean"}} {{score .Mean}}</small></th>
{{end}}<th>{{T "book_html_total"}}<br><small>{{T "book_html_mean"}} {{score .Book.Mean}}</small></th></tr></thead>
<tbody>
{{range .Book.Students}}<tr><td class="name">{{.Name}}{{if .ID}} <small>{{.ID}}</small>{{end}}</td>
{{range .Cells}}{{if .Graded}}<td class="{{.Status}}"{{if .Late}} title="{{T "book_html_late"}}"{{end}}>{{score .Score}}{{if .Late}}*{{end}}</td>{{else}}<td class="none" title="{{T "book_html_not_graded"}}">–</td>{{end}}
{{end}}<td class="total">{{score .Total}}</td></tr>
{{end}}</tbody>
</table></div>
</body>
</html>
`
