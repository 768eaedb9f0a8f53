package grade

import (
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strings"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/i18n"
	"github.com/workbook-course/workbook/internal/render"
	"github.com/workbook-course/workbook/internal/report"
)

// HTML writes report.html: one self-contained page (its script in the page, nothing loaded from
// elsewhere) with the class table (sorted by a click on a column, filtered by a word or a status),
// the pass rate of each case and drawn case, a student × case grid whose cells lead to each failure,
// every student's source beside their failures, the wrong transcripts several students share and the
// suspected copies, in the language uiLang.
func HTML(w io.Writer, rep *Report, uiLang string) error {
	pr := i18n.New(uiLang)
	data := map[string]any{
		"Pairs":     htmlPairs(rep),
		"Isolation": isolationNote(pr, rep),
		"Lang":      uiLang,
		"Rep":       rep,
		"Title":     titleIn(rep, uiLang),
		"Notes":     rowNotes(pr, rep),
		"Groups":    rep.Copies,
		"Drawn":     drawnRows(rep),
		"Grid":      gridOf(rep),
		"Script":    template.JS(reportScript),
		"CodeCSS":   template.CSS(render.CSS()),
	}
	t, err := template.New("report").Funcs(htmlFuncs(pr, rep, uiLang)).Parse(htmlPage)
	if err != nil {
		return err
	}
	return t.Execute(w, data)
}

// rowNotes are the notes of each student's row: copy groups, by heart, and studentNotes.
func rowNotes(pr *i18n.Printer, rep *Report) map[string][]string {
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
		notes[st.Name] = append(notes[st.Name], studentNotes(pr, st, !rep.Due.IsZero())...)
	}
	return notes
}

// isolationNote is what the sandbox could not give on the machine that graded, said once for the
// whole class ("" when nothing is missing).
func isolationNote(pr *i18n.Printer, rep *Report) string {
	for _, st := range rep.Students {
		if iso := st.Result.Isolation; iso != nil {
			if len(iso.Missing) == 0 {
				return ""
			}
			names := make([]string, len(iso.Missing))
			for i, p := range iso.Missing {
				names[i] = pr.T("protection_" + p)
			}
			return pr.T("grade_html_isolation", "List", strings.Join(names, ", "))
		}
	}
	return ""
}

// gridColumn is a column of the student × case grid: a case of the grading or a drawn one.
type gridColumn struct{ Name, Title string }

// gridRow is a student's row of the grid: one cell per column, in the order of the columns.
type gridRow struct {
	Student string
	Index   int
	Cells   []gridCell
}

// gridCell is a student's result in a case: its status ("" when the case was not run) and its index
// among the student's results (the anchor of the difference).
type gridCell struct {
	Status checker.Verdict
	Case   int
}

// grid is the student × case grid.
type grid struct {
	Columns []gridColumn
	Rows    []gridRow
}

// gridOf makes the grid: the cases of the grading, then the drawn ones (the same for the class).
func gridOf(rep *Report) grid {
	var g grid
	col := map[string]int{}
	for _, c := range rep.Cases {
		col[c.Name] = len(g.Columns)
		g.Columns = append(g.Columns, gridColumn{Name: c.Name})
	}
	for _, d := range drawnRows(rep) {
		col[d.Name] = len(g.Columns)
		g.Columns = append(g.Columns, gridColumn{Name: d.Name, Title: d.Args})
	}
	for i, st := range rep.Students {
		row := gridRow{Student: st.Name, Index: i, Cells: make([]gridCell, len(g.Columns))}
		for j, c := range st.Result.Cases {
			if k, ok := col[c.Name]; ok {
				row.Cells[k] = gridCell{Status: c.Status, Case: j}
			}
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// htmlFuncs are the template's functions, in the language uiLang.
func htmlFuncs(pr *i18n.Printer, rep *Report, uiLang string) template.FuncMap {
	return template.FuncMap{
		"T":       func(id string, kv ...any) string { return pr.T(id, kv...) },
		"N":       func(id string, n int, kv ...any) string { return pr.N(id, n, kv...) },
		"status":  func(s string) string { return pr.T("grade_status_" + s) },
		"verdict": func(v checker.Verdict) string { return verdictText(pr, v) },
		"cell":    func(s checker.Verdict) string { return cellMark[s] },
		"cellText": func(s checker.Verdict) string {
			if s == "" || s == checker.NotRun {
				return pr.T("grade_html_not_run")
			}
			return pr.T("status_" + string(s))
		},
		// caseText is a failed case's headline and, for a known cause, its words (a timeout that
		// spun or slept, a limit of the sandbox), never the bare code.
		"caseText": func(c checker.CaseResult) string {
			if c.Status == checker.NotRun {
				return pr.T("grade_html_not_run")
			}
			text := report.CaseStatus(pr, c)
			if msg, ok := report.MessageText(pr, c.Message); ok {
				text += " " + msg
			}
			return text
		},
		// scenario is a scenario case's figures against their limits and its chart (report.ScenarioLines).
		"scenario":  func(c checker.CaseResult) string { return strings.Join(report.ScenarioLines(pr, c), "\n") },
		"href":      func(name string) string { return FeedbackDir + "/" + (&url.URL{Path: name}).EscapedPath() },
		"feedback":  func(student string) string { return rep.Feedback[student] },
		"pct":       pct,
		"width":     width,
		"score":     func(f float64) string { return scoreIn(f, uiLang) },
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
		"mark":         func(v checker.Verdict) string { return verdictBadge(pr, v) },
		"args":         func(a []string) string { return strings.Join(a, " ") },
		"failed":       func(c checker.CaseResult) bool { return c.Status != checker.Pass },
		"statuses":     func() []string { return []string{StatusPass, StatusFail, StatusError, StatusTool, StatusMissing} },
		"code":         sourceHTML,
	}
}

// sourceHTML is a student's file for the source view: Go coloured by the lessons' highlighter
// (render.CodeHTML, go/scanner's tokens, the text escaped), any other file plain.
func sourceHTML(f SourceFile) template.HTML {
	lang := ""
	if strings.HasSuffix(strings.ToLower(f.Name), ".go") {
		lang = "go"
	}
	return render.CodeHTML(lang, f.Text)
}

// verdictText is a verdict in the instructor's words.
func verdictText(pr *i18n.Printer, v checker.Verdict) string {
	switch v {
	case BadArchive, TooBig, NotGraded, Unchanged, NoSubmission:
		return pr.T("grade_verdict_" + string(v))
	}
	return pr.T("status_" + string(v))
}

// Marks of the case statuses in the grid (symbols every common font has) and the badges of the
// verdicts that are no wrong answer: a hang, a crash, a flood, memory.
var cellMark = map[checker.Verdict]string{checker.Pass: "✓", checker.Fail: "✗", checker.Timeout: "∞", checker.Crash: "↯",
	checker.OutputLimit: "≋", checker.MemoryLimit: "▣", checker.NotRun: "·", "": "·"}

// verdictBadge is the badge of a verdict that is no wrong answer ("" for the others).
func verdictBadge(pr *i18n.Printer, v checker.Verdict) string {
	switch v {
	case checker.Timeout, checker.Crash, checker.OutputLimit, checker.MemoryLimit:
		return cellMark[v] + " " + pr.T("grade_html_mark_"+string(v))
	}
	return ""
}

func pct(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%d%%", (a*100+b/2)/b)
}

func width(a, b int) template.CSS {
	if b == 0 {
		return "width:0"
	}
	return template.CSS(fmt.Sprintf("width:%d%%", (a*100+b/2)/b))
}

// scoreIn writes a score with at most two decimals, a decimal comma in Russian and Bulgarian.
func scoreIn(f float64, lang string) string {
	return i18n.Score(lang, f)
}

// reportScript sorts and filters the class table and opens the details a link leads to; plain
// JavaScript, nothing loaded.
const reportScript = `(function(){
var t=document.getElementById('class');if(!t)return;var body=t.tBodies[0];
var q=document.getElementById('filter'),s=document.getElementById('statusfilter');
function apply(){var v=q.value.toLowerCase(),st=s.value,n=0;
for(var i=0;i<body.rows.length;i++){var r=body.rows[i];var ok=(!v||r.textContent.toLowerCase().indexOf(v)>=0)&&(!st||r.getAttribute('data-status')===st);r.hidden=!ok;if(ok)n++;}
document.getElementById('shown').textContent=n;}
q.addEventListener('input',apply);s.addEventListener('change',apply);
var ths=t.tHead.rows[0].cells;
Array.prototype.forEach.call(ths,function(th,i){th.addEventListener('click',function(){
var dir=th.getAttribute('data-dir')==='asc'?'desc':'asc';
Array.prototype.forEach.call(ths,function(h){h.removeAttribute('data-dir');h.removeAttribute('aria-sort');});
th.setAttribute('data-dir',dir);th.setAttribute('aria-sort',dir==='asc'?'ascending':'descending');
var num=th.getAttribute('data-type')==='num';var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(a,b){var x=a.cells[i].getAttribute('data-v')||a.cells[i].textContent,y=b.cells[i].getAttribute('data-v')||b.cells[i].textContent;
var c=num?(parseFloat(x)-parseFloat(y)):x.localeCompare(y,document.documentElement.lang);return dir==='asc'?c:-c;});
rows.forEach(function(r){body.appendChild(r);});});});
function open(){if(!location.hash)return;var e=document.getElementById(decodeURIComponent(location.hash.slice(1)));
for(var p=e;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}if(e)e.scrollIntoView();}
window.addEventListener('hashchange',open);open();
})();`

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
.filters input{font:inherit;padding:.2rem .4rem;width:16rem}.filters select{font:inherit}
#class th{cursor:pointer}#class th[data-dir=asc]::after{content:" ▲"}#class th[data-dir=desc]::after{content:" ▼"}
.v-bad{color:#b00020}.mark{background:#b00020;color:#fff;border-radius:.2rem;padding:0 .3rem;font-size:.85em;font-weight:600}
.gridwrap{overflow-x:auto}.grid td,.grid th{padding:.15rem .3rem;text-align:center;font-size:13px}.grid td:first-child{text-align:left;white-space:nowrap}
.c-pass{background:#e6f4ea}.c-fail{background:#fde7e9}.c-timeout,.c-crash,.c-output_limit,.c-memory_limit{background:#ffd8a8}.c-none{color:#bbb}
.grid a{text-decoration:none;color:inherit;display:block}
details.student{border-bottom:1px solid #eee;padding:.2rem 0}.src{max-height:30rem}.fail{border-left:3px solid #b00020;padding-left:.5rem;margin:.4rem 0}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.sbs pre{font-size:12px}mark{background:#ffe08a}.ln{display:inline-block;width:2.5em;color:#999;user-select:none}
@media (prefers-color-scheme: dark){pre.src{background:#161b22;color:#e6edf3}}
{{.CodeCSS}}
</style>
</head>
<body>
<h1>{{T "grade_html_title" "Title" .Title "Name" .Rep.Exercise}}</h1>
<p>{{N "grade_html_summary" .Rep.Summary.Students "Pass" .Rep.Summary.Pass "Fail" .Rep.Summary.Fail "Error" .Rep.Summary.Error "Mean" (score .Rep.Summary.MeanScore)}}{{if .Rep.Shard}} {{T "grade_html_shard" "Shard" .Rep.Shard}}{{end}}</p>
{{if .Rep.ForcedLang}}<p><span class="note">{{T "grade_html_forced_lang" "Lang" .Rep.ForcedLang}}</span></p>
{{end}}

<h2>{{T "grade_html_class"}}</h2>
<p class="filters"><input id="filter" type="search" placeholder="{{T "grade_html_filter"}}" aria-label="{{T "grade_html_filter"}}">
<select id="statusfilter" aria-label="{{T "grade_html_status"}}"><option value="">{{T "grade_html_all_statuses"}}</option>{{range $s := statuses}}<option value="{{$s}}">{{status $s}}</option>{{end}}</select>
<span class="muted">{{T "grade_html_shown"}} <span id="shown">{{len .Rep.Students}}</span></span></p>
<table id="class">
<thead><tr title="{{T "grade_html_sort"}}"><th>{{T "grade_html_student"}}</th><th>{{T "grade_html_status"}}</th><th data-type="num">{{T "grade_html_score"}}</th><th data-type="num">{{T "grade_html_passed"}}</th><th>{{T "grade_html_verdict"}}</th><th>{{T "grade_html_lang"}}</th><th>{{T "grade_html_notes"}}</th></tr></thead>
<tbody>
{{range $i, $st := .Rep.Students}}<tr data-status="{{.Status}}"><td><a href="#st-{{$i}}">{{.Name}}</a>{{if and .ID (ne .ID .Name)}} <span class="muted">{{.ID}}</span>{{end}} <a class="muted" href="{{href (feedback .Name)}}">{{T "grade_html_feedback_file"}}</a></td><td class="{{status_class .Status}}">{{status .Status}}</td><td class="num" data-v="{{.Score}}">{{score .Score}}</td><td class="num" data-v="{{.Passed}}">{{.Passed}}/{{.Total}}</td><td{{with mark .Result.Verdict}} class="v-bad"{{end}}>{{with mark .Result.Verdict}}<span class="mark">{{.}}</span> {{end}}{{verdict .Result.Verdict}}</td><td>{{.Lang}}{{if .LangFrom}} <span class="muted">({{T (print "grade_html_lang_" .LangFrom)}})</span>{{end}}</td><td>{{if .Late}}<span class="note">{{T "grade_html_late"}}{{if .Penalty}} −{{score .Penalty}}{{end}}</span>{{end}}{{range index $.Notes .Name}}<span class="note">{{.}}</span>{{end}}</td></tr>
{{end}}</tbody></table>

<h2>{{T "grade_html_cases"}}</h2>
<table>
<tr><th>{{T "grade_html_case"}}</th><th>{{T "grade_html_case_title"}}</th><th>{{T "grade_html_kind"}}</th><th>{{T "grade_html_passed"}}</th><th></th></tr>
{{range .Rep.Cases}}<tr><td>{{.Name}}</td><td>{{caseTitle .}}</td><td>{{if .Visible}}{{T "grade_html_visible"}}{{else if eq .Source "tests"}}{{T "grade_html_instructor"}}{{else}}{{T "grade_html_hidden"}}{{end}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}{{range .Drawn}}<tr><td>{{.Name}}</td><td><code>{{.Args}}</code></td><td>{{T "grade_html_drawn"}}</td><td class="num">{{.Passed}}/{{.Ran}} ({{pct .Passed .Ran}})</td><td><span class="bar"><span style="{{width .Passed .Ran}}"></span></span></td></tr>
{{end}}</table>
{{if .Drawn}}<p class="muted">{{T "grade_html_seed" "Seed" .Rep.Seed}}</p>{{end}}

<h2>{{T "grade_html_grid"}}</h2>
<p class="muted">{{T "grade_html_grid_intro"}}</p>
<div class="gridwrap"><table class="grid">
<thead><tr><th>{{T "grade_html_student"}}</th>{{range .Grid.Columns}}<th title="{{.Title}}">{{.Name}}</th>{{end}}</tr></thead>
<tbody>{{range .Grid.Rows}}{{$r := .}}<tr><td><a href="#st-{{.Index}}">{{.Student}}</a></td>{{range .Cells}}<td class="c-{{if .Status}}{{.Status}}{{else}}none{{end}}" title="{{cellText .Status}}">{{if and .Status (ne .Status "pass")}}<a href="#st-{{$r.Index}}-c-{{.Case}}">{{cell .Status}}</a>{{else}}{{cell .Status}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table></div>

<h2>{{T "grade_html_students"}}</h2>
{{range $i, $st := .Rep.Students}}<details id="st-{{$i}}" class="student"><summary><strong>{{.Name}}</strong> — <span class="{{status_class .Status}}">{{status .Status}}</span>, {{score .Score}}{{with mark .Result.Verdict}} <span class="mark">{{.}}</span>{{end}} {{verdict .Result.Verdict}}</summary>
<div class="sbs"><div><p>{{T "grade_html_source"}}{{if .Program}} <code>{{.Program}}</code>{{end}}</p>
{{range .Source}}<p class="muted"><code>{{.Name}}</code></p><pre class="src chroma">{{code .}}</pre>
{{else}}<p class="muted">{{T "grade_html_no_source"}}</p>{{end}}</div>
<div><p>{{T "grade_html_failures"}}</p>{{if .Result.BuildLog}}<pre>{{.Result.BuildLog}}</pre>{{end}}
{{range $j, $c := .Result.Cases}}{{if failed $c}}<div id="st-{{$i}}-c-{{$j}}" class="fail"><p><strong>{{$c.Name}}</strong> — {{caseText $c}}{{if $c.Args}} <code>{{args $c.Args}}</code>{{end}}</p>
{{if $c.Diff}}<pre>{{T "want_label"}} {{visible $c.Diff.Want}}
{{T "got_label"}} {{visible $c.Diff.Got}}</pre>{{else if $c.Metrics}}<pre>{{scenario $c}}</pre>{{else if $c.Got}}<pre>{{$c.Got}}</pre>{{end}}</div>
{{end}}{{end}}</div></div>
</details>
{{end}}

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
<ol>{{range .Rep.Copies}}<li>{{join .Students}}{{if .Solution}} — <strong>{{T "grade_html_solution" "Lang" .Solution}}</strong>{{end}}{{if .Exact}} — <strong>{{T "grade_html_exact"}}</strong>{{end}} <span class="muted">({{N "grade_html_tokens" .Tokens}})</span></li>
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
<script>{{.Script}}</script>
</body>
</html>
`

// studentNotes are the notes of a student's row: an identity in conflict, how the submission time is
// known (or that it is not), a program taken out of an online text, a limit hit and its flag.
func studentNotes(pr *i18n.Printer, st Student, due bool) []string {
	var out []string
	if st.Conflict != "" {
		out = append(out, pr.T("grade_html_conflict_"+st.Conflict))
	}
	if st.Anonymous {
		out = append(out, pr.T("grade_html_anonymous"))
	}
	if due && st.Result != nil && st.Result.Verdict != NoSubmission {
		if st.TimeFrom == "" {
			out = append(out, pr.T("grade_html_time_unknown"))
		} else {
			out = append(out, pr.T("grade_html_time_"+st.TimeFrom))
		}
	}
	if st.FeedbackError != "" {
		out = append(out, pr.T("grade_html_feedback_error", "Err", st.FeedbackError))
	}
	if st.FromText {
		out = append(out, pr.T("grade_html_from_text"))
	}
	if len(st.Recoded) > 0 {
		out = append(out, pr.T("grade_html_recoded", "Files", strings.Join(st.Recoded, ", ")))
	}
	if len(st.Superseded) > 0 {
		out = append(out, pr.T("grade_html_superseded", "Files", strings.Join(st.Superseded, ", ")))
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

// titleIn is the exercise's title in lang, else in bg or ru, else its name.
func titleIn(rep *Report, lang string) string {
	for _, l := range []string{lang, "bg", "ru"} {
		if t := rep.Titles[l]; t != "" {
			return t
		}
	}
	return rep.Exercise
}
