package grade

import (
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
)

// HTML writes report.html: one self-contained page (no scripts, no files or fonts from elsewhere)
// with the class table, the pass rate of each case, the wrong transcripts several students share and
// the suspected copies, in the language uiLang.
func HTML(w io.Writer, rep *Report, uiLang string) error {
	pr := i18n.New(uiLang)
	notes := map[string][]string{}
	for i, g := range rep.Copies {
		for _, s := range g.Students {
			notes[s] = append(notes[s], pr.T("grade_html_note_copy", "N", i+1))
		}
	}
	for _, s := range rep.ByHeart {
		notes[s] = append(notes[s], pr.T("grade_html_note_by_heart"))
	}
	for _, st := range rep.Students {
		notes[st.Name] = append(notes[st.Name], studentNotes(pr, st)...)
	}
	// What the sandbox could not give on the machine that graded, said once for the whole class.
	isolation := ""
	for _, st := range rep.Students {
		if iso := st.Result.Isolation; iso != nil {
			if len(iso.Missing) > 0 {
				names := make([]string, len(iso.Missing))
				for i, p := range iso.Missing {
					names[i] = pr.T("protection_" + p)
				}
				isolation = pr.T("grade_html_isolation", "List", strings.Join(names, ", "))
			}
			break
		}
	}
	data := map[string]any{
		"Pairs":     htmlPairs(rep),
		"Isolation": isolation,
		"Lang":      uiLang,
		"Rep":       rep,
		"Title":     titleIn(rep, uiLang),
		"Notes":     notes,
		"Groups":    rep.Copies,
		"Drawn":     drawnRows(rep),
	}
	funcs := template.FuncMap{
		"T": func(id string, kv ...any) string { return pr.T(id, kv...) },
		"N": func(id string, n int, kv ...any) string { return pr.N(id, n, kv...) },
		"status": func(s string) string {
			return pr.T("grade_status_" + s)
		},
		"verdict": func(v checker.Verdict) string {
			switch v {
			case BadArchive, TooBig, NotGraded, Unchanged:
				return pr.T("grade_verdict_" + string(v))
			}
			return pr.T("status_" + string(v))
		},
		"href": func(name string) string {
			return FeedbackDir + "/" + (&url.URL{Path: name}).EscapedPath()
		},
		"feedback": func(student string) string { return rep.Feedback[student] },
		"pct": func(a, b int) string {
			if b == 0 {
				return "—"
			}
			return fmt.Sprintf("%d%%", (a*100+b/2)/b)
		},
		"width": func(a, b int) template.CSS {
			if b == 0 {
				return "width:0"
			}
			return template.CSS(fmt.Sprintf("width:%d%%", (a*100+b/2)/b))
		},
		"score": func(f float64) string {
			s := fmt.Sprintf("%.2f", f)
			s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
			if uiLang != "en" {
				s = strings.Replace(s, ".", ",", 1)
			}
			return s
		},
		"caseTitle": func(c CaseInfo) string { return c.Title(uiLang) },
		"caseByName": func(name string) CaseInfo {
			for _, c := range rep.Cases {
				if c.Name == name {
					return c
				}
			}
			return CaseInfo{Name: name}
		},
		"visible":      func(s string) string { return checker.Visible(s) },
		"join":         func(list []string) string { return strings.Join(list, ", ") },
		"inc":          func(i int) int { return i + 1 },
		"status_class": func(s string) string { return "st-" + s },
	}
	t, err := template.New("report").Funcs(funcs).Parse(htmlPage)
	if err != nil {
		return err
	}
	return t.Execute(w, data)
}

func titleIn(rep *Report, lang string) string {
	for _, l := range []string{lang, "bg", "ru"} {
		if t := rep.Titles[l]; t != "" {
			return t
		}
	}
	return rep.Exercise
}

const htmlPage = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{T "grade_html_title" "Title" .Title "Name" .Rep.Exercise}}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%}th,td{padding:.3rem .5rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f6f6f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
.st-pass{color:#17692c;font-weight:600}.st-fail{color:#a4410e;font-weight:600}.st-error{color:#b00020;font-weight:600}
.bar{background:#eee;height:.7rem;width:10rem;display:inline-block;vertical-align:middle}.bar span{display:block;height:100%;background:#3a7bd5}
.note{background:#fff3cd;border-radius:.2rem;padding:0 .3rem;margin-right:.3rem;white-space:nowrap}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:13px}.muted{color:#666}
details{margin:.3rem 0}summary{cursor:pointer}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.sbs pre{font-size:12px}mark{background:#ffe08a}.ln{display:inline-block;width:2.5em;color:#999;user-select:none}
</style>
</head>
<body>
<h1>{{T "grade_html_title" "Title" .Title "Name" .Rep.Exercise}}</h1>
<p>{{N "grade_html_summary" .Rep.Summary.Students "Pass" .Rep.Summary.Pass "Fail" .Rep.Summary.Fail "Error" .Rep.Summary.Error "Mean" (score .Rep.Summary.MeanScore)}}{{if .Rep.Shard}} {{T "grade_html_shard" "Shard" .Rep.Shard}}{{end}}</p>
{{if .Rep.ForcedLang}}<p><span class="note">{{T "grade_html_forced_lang" "Lang" .Rep.ForcedLang}}</span></p>
{{end}}

<h2>{{T "grade_html_class"}}</h2>
<table>
<tr><th>{{T "grade_html_student"}}</th><th>{{T "grade_html_status"}}</th><th>{{T "grade_html_score"}}</th><th>{{T "grade_html_passed"}}</th><th>{{T "grade_html_verdict"}}</th><th>{{T "grade_html_lang"}}</th><th>{{T "grade_html_notes"}}</th></tr>
{{range .Rep.Students}}<tr><td><a href="{{href (feedback .Name)}}">{{.Name}}</a>{{if and .ID (ne .ID .Name)}} <span class="muted">{{.ID}}</span>{{end}}</td><td class="{{status_class .Status}}">{{status .Status}}</td><td class="num">{{score .Score}}</td><td class="num">{{.Passed}}/{{.Total}}</td><td>{{verdict .Result.Verdict}}</td><td>{{.Lang}}{{if .LangFrom}} <span class="muted">({{T (print "grade_html_lang_" .LangFrom)}})</span>{{end}}</td><td>{{if .Late}}<span class="note">{{T "grade_html_late"}}{{if .Penalty}} −{{score .Penalty}}{{end}}</span>{{end}}{{range index $.Notes .Name}}<span class="note">{{.}}</span>{{end}}</td></tr>
{{end}}</table>

<h2>{{T "grade_html_cases"}}</h2>
<table>
<tr><th>{{T "grade_html_case"}}</th><th>{{T "grade_html_case_title"}}</th><th>{{T "grade_html_kind"}}</th><th>{{T "grade_html_passed"}}</th><th></th></tr>
{{range .Rep.Cases}}<tr><td>{{.Name}}</td><td>{{caseTitle .}}</td><td>{{if .Visible}}{{T "grade_html_visible"}}{{else if eq .Source "tests"}}{{T "grade_html_instructor"}}{{else}}{{T "grade_html_hidden"}}{{end}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}{{range .Drawn}}<tr><td>{{.Name}}</td><td><code>{{.Args}}</code></td><td>{{T "grade_html_drawn"}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}</table>
{{if .Drawn}}<p class="muted">{{T "grade_html_seed" "Seed" .Rep.Seed}}</p>{{end}}

<h2>{{T "grade_html_wrong"}}</h2>
{{if .Rep.Wrong}}<p class="muted">{{T "grade_html_wrong_intro"}}</p>
{{range .Rep.Wrong}}{{$c := caseByName .Case}}<details>
<summary><strong>{{N "grade_html_wrong_count" (len .Students)}}</strong> — {{.Case}}: {{caseTitle $c}}{{if .Diff}} — {{T "grade_html_wrong_line" "Line" .Diff.Line}}{{end}}</summary>
<p>{{join .Students}}</p>
{{if .Diff}}<pre>{{T "want_label"}} {{visible .Diff.Want}}
{{T "got_label"}} {{visible .Diff.Got}}</pre>{{end}}
<p>{{T "grade_html_got"}}</p><pre>{{.Got}}</pre>
<p>{{T "grade_html_want"}}</p><pre>{{.Want}}</pre>
</details>
{{end}}{{else}}<p class="muted">{{T "grade_html_wrong_none"}}</p>{{end}}

<h2>{{T "grade_html_copies"}}</h2>
{{if .Rep.Copies}}<p class="muted">{{T "grade_html_copies_intro"}}</p>
<ol>{{range .Rep.Copies}}<li>{{join .Students}}{{if .Solution}} — <strong>{{T "grade_html_solution" "Lang" .Solution}}</strong>{{end}} <span class="muted">({{N "grade_html_tokens" .Tokens}})</span></li>
{{end}}</ol>{{else}}<p class="muted">{{T "grade_html_copies_none"}}</p>{{end}}
{{if .Pairs}}<h3>{{T "grade_html_pairs"}}</h3>
<p class="muted">{{T "grade_html_pairs_intro"}}</p>
{{range .Pairs}}<details>
<summary><strong>{{.A}} — {{.B}}</strong>: {{pct .Permille 1000}} <span class="muted">({{N "grade_html_pair_shared" .Shared}})</span></summary>
<div class="sbs"><div><p>{{.A}}</p><pre>{{range .Left}}<span class="ln">{{.N}}</span>{{if .Shared}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}
{{end}}</pre></div><div><p>{{.B}}</p><pre>{{range .Right}}<span class="ln">{{.N}}</span>{{if .Shared}}<mark>{{.Text}}</mark>{{else}}{{.Text}}{{end}}
{{end}}</pre></div></div>
</details>
{{end}}{{end}}

<h2>{{T "grade_html_by_heart"}}</h2>
{{if .Rep.ByHeart}}<p class="muted">{{T "grade_html_by_heart_intro"}}</p>
<p>{{join .Rep.ByHeart}}</p>{{else}}<p class="muted">{{T "grade_html_by_heart_none"}}</p>{{end}}

{{if .Isolation}}<p class="muted">{{.Isolation}}</p>
{{end}}<p class="muted">{{T "grade_html_footer" "Config" .Rep.Config}}</p>
</body>
</html>
`

// studentNotes are the notes of a student's row: an identity in conflict, how the submission time is
// known (or that it is not), a program taken out of an online text, a limit hit and its flag.
func studentNotes(pr *i18n.Printer, st Student) []string {
	var out []string
	if st.Conflict != "" {
		out = append(out, pr.T("grade_html_conflict_"+st.Conflict))
	}
	if st.Anonymous {
		out = append(out, pr.T("grade_html_anonymous"))
	}
	if st.Result != nil && st.Result.Verdict != NoSubmission {
		if st.TimeFrom == "" {
			out = append(out, pr.T("grade_html_time_unknown"))
		} else {
			out = append(out, pr.T("grade_html_time_"+st.TimeFrom))
		}
	}
	if st.FromText {
		out = append(out, pr.T("grade_html_from_text"))
	}
	if st.Result != nil && (st.Result.Verdict == TooBig || st.Result.Verdict == BadArchive) {
		code := st.Result.Message
		if st.Result.Verdict == BadArchive {
			code = limitCode(st.Result.BuildLog)
		}
		if f := LimitFlag(code); f != "" {
			out = append(out, pr.T("grade_html_limit", "Flag", f))
		}
	}
	return out
}

// limitCode is the limit a refused archive hit, from the flag its BuildLog names.
func limitCode(log string) string {
	for code, flag := range limitFlags {
		if strings.HasSuffix(log, "("+flag+")") {
			return code
		}
	}
	return ""
}

// drawnRow is a drawn case in the pass-rate table: the same for the whole class (DrawSeed).
type drawnRow struct {
	Name, Args  string
	Passed, Ran int
}

// drawnRows counts, for each drawn case, the students who ran it and passed it.
func drawnRows(rep *Report) []drawnRow {
	var rows []drawnRow
	fixed := len(rep.Cases)
	for _, st := range rep.Students {
		if st.Drawn == nil || st.Result == nil {
			continue
		}
		for i, args := range st.Drawn.Args {
			k := fixed + i
			if k >= len(st.Result.Cases) {
				break
			}
			c := st.Result.Cases[k]
			for len(rows) <= i {
				rows = append(rows, drawnRow{Name: c.Name, Args: strings.Join(args, " ")})
			}
			rows[i].Ran++
			if c.Status == checker.Pass {
				rows[i].Passed++
			}
		}
	}
	return rows
}
