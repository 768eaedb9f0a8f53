package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/browsertest"
)

// maxReportBytes is what report.html of a class of thousands may weigh (issue 40.6).
const (
	bigClassSize   = 5000
	bigClassCases  = 34 // exercise-deadline's count
	maxReportBytes = 10 << 20
)

// bigClass is a graded class of n students and cases cases, as a large course's export gives it:
// long Cyrillic names with LMS ids, every verdict, a real program each (the reference solution with
// a line of its own), late work, advice on the code for some.
func bigClass(t testing.TB, n, cases int) *Report {
	t.Helper()
	src := string(courseFile(t, "solutions/exercise-deadline/ru/main.go"))
	var infos []CaseInfo
	for j := range cases {
		infos = append(infos, CaseInfo{Name: fmt.Sprintf("%02d-case", j+1), Visible: j < 5, Weight: 1,
			Titles: map[string]string{"ru": "повтор с крайним сроком " + strconv.Itoa(j+1)}})
	}
	rep := &Report{Exercise: "exercise-deadline", Titles: map[string]string{"ru": "Повторы с крайним сроком"}, Cases: infos}
	statuses := []checker.Verdict{checker.Pass, checker.Pass, checker.Pass, checker.Fail, checker.Timeout, checker.Crash}
	rules := []string{"sleep_retry", "backoff_jitter", "body_close", "timer_stop"}
	for i := range n {
		res := &checker.Result{Exercise: rep.Exercise, Lang: "ru", Verdict: checker.Pass, Total: cases}
		for j, c := range infos {
			s := statuses[(i*7+j*j)%len(statuses)]
			if i%4 == 0 {
				s = checker.Pass
			}
			cr := checker.CaseResult{Name: c.Name, Status: s, Visible: c.Visible, Args: []string{"-deadline", strconv.Itoa(j)}}
			if s == checker.Fail {
				cr.Want, cr.Got = "тик 0, попытка 1: timeout\nрезультат: ok\n", "тик 0, попытка 1: timeout\nрезультат: срок истёк\n"
				cr.Diff = &checker.Diff{Line: 2, Want: "результат: ok", Got: "результат: срок истёк"}
			}
			if s != checker.Pass && res.Verdict == checker.Pass {
				res.Verdict = s
			}
			if s == checker.Pass {
				res.Passed++
			}
			res.Cases = append(res.Cases, cr)
		}
		if i%5 == 1 {
			r := rules[i%len(rules)]
			res.Advice = []checker.Advice{{Rule: r, File: "main.go", Line: 40 + i%30, Col: 2}}
		}
		name := fmt.Sprintf("Константинопольская-Воскресенская Александра Владимировна %04d", i)
		st := Student{Name: name, ID: strconv.Itoa(100000 + i), Lang: "ru", LangFrom: LangFromOutput, Result: res, Late: i%9 == 0,
			Source: []SourceFile{{Name: "main.go", Text: src + fmt.Sprintf("\n// студент %d\n", i)}}}
		rep.Students = append(rep.Students, st)
	}
	rep.Finalize()
	return rep
}

// TestReportForThousands writes the report of a class of 5,000 with 34 cases: report.html stays
// under 10 MB with no student's source in it, its class table and grid are the data of every
// student, each student's details (source and failures) are in a file of their own beside it, and
// the page holds in Chromium (reportForThousandsInBrowser).
func TestReportForThousands(t *testing.T) {
	if testing.Short() {
		t.Skip("a class of 5,000")
	}
	out := t.TempDir()
	rep := bigClass(t, bigClassSize, bigClassCases)
	if err := Write(out, rep, "ru"); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html: %d bytes for %d students (%d a student)", len(page), bigClassSize, len(page)/bigClassSize)
	if len(page) >= maxReportBytes {
		t.Errorf("report.html weighs %d bytes for %d students, want under %d", len(page), bigClassSize, maxReportBytes)
	}
	if strings.Contains(string(page), `class="src`) || strings.Contains(string(page), "студент 42\n") {
		t.Errorf("report.html holds the students' source; it belongs in %s/", DetailsDir)
	}
	if d := pageClassData(t, page); len(d.Rows) != bigClassSize || d.Rows[42].Name != rep.Students[42].Name || len(d.Rows[42].Cells) != bigClassCases {
		t.Errorf("report.html's data: %d rows, want %d, each with its name and %d cells", len(d.Rows), bigClassSize, bigClassCases)
	}
	entries, err := os.ReadDir(filepath.Join(out, DetailsDir))
	if err != nil || len(entries) != bigClassSize {
		t.Fatalf("%s/ holds %d files (%v), want %d", DetailsDir, len(entries), err, bigClassSize)
	}
	for _, i := range []int{0, 42, bigClassSize - 1} {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(DetailFile(i))))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), fmt.Sprintf("reportDetail(%d,\"", i)) || !strings.Contains(string(data), fmt.Sprintf("студент %d", i)) {
			t.Errorf("%s does not hand the page student %d's details: %.200s", DetailFile(i), i, data)
		}
	}
	t.Run("browser", func(t *testing.T) { reportForThousandsInBrowser(t, out, rep) })
	// A second write of a smaller class leaves no details of the first.
	small := bigClass(t, 3, 2)
	if err := Write(out, small, "ru"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(out, DetailsDir)); len(entries) != 3 {
		t.Errorf("after a class of 3, %s/ holds %d files", DetailsDir, len(entries))
	}
}

// reportForThousandsInBrowser opens the report of a class of 5,000 (rep, written in out) in
// Chromium and measures its shape, never its speed: the class table and the grid hold only the rows
// in view, each one line high, in a body as high as all 5,000 (aria-rowcount says how many); the
// grid's header row and its column of names stay in view however far it is scrolled, as does the
// class table's header, and wherever either is scrolled the rows there are drawn (the last student's
// at the end, a failed cell of it leading to the failure); a search finds a student, and Ctrl-F
// goes to it; a student's
// details load from details/ into a panel inside the window, whose source fits the panel; the advice
// filter shows the students advised on a rule. Screenshots go to $WORKBOOK_SCREENSHOTS, else the
// test's folder.
func reportForThousandsInBrowser(t *testing.T, out string, rep *Report) {
	exe := browsertest.Chromium(t)
	do, eval, shot, shots := reportBrowser(t, exe, "grade-thousands-", 5*time.Minute)
	do(chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, HTMLFile))), chromedp.WaitVisible(chromedp.CSS("#grid")))
	shot("page")
	// For BENCHMARKS.md, never judged: how long this machine took to read and lay out the page.
	t.Logf("navigation timing (ms): %s", eval(`(function(){var n=performance.getEntriesByType('navigation')[0];
		return 'domContentLoaded '+Math.round(n.domContentLoadedEventEnd)+', load '+Math.round(n.loadEventEnd)})()`))

	// Only the rows in view are in the document, each one line high, between spacers as high as the
	// rows that are not: the table is as high as 5,000 rows, its scroll bar too.
	rows := `(function(sel){var t=document.querySelector(sel),rs=t.querySelectorAll('tbody tr:not(.pad)'),max=0,n=rs.length;
		for(var i=0;i<n;i++){max=Math.max(max,rs[i].getBoundingClientRect().height);}
		var lh=parseFloat(getComputedStyle(rs[0].cells[0]).lineHeight),h=rs[0].getBoundingClientRect().height;
		return [n,max,lh,t.tBodies[0].getBoundingClientRect().height/h,t.getAttribute('aria-rowcount')].join(' ')})`
	for _, sel := range []string{"#class", "#grid"} {
		var n, count int
		var high, line, tall float64
		fmt.Sscan(eval(rows+"('"+sel+"')"), &n, &high, &line, &tall, &count)
		if n < 10 || n > 300 || line <= 0 || high >= 2*line || tall < bigClassSize-1 || tall > bigClassSize+1 || count != bigClassSize+1 {
			t.Errorf("%s: %d rows drawn, the highest %.1f px for a line of %.1f px, the body %.1f rows high, aria-rowcount %d: want a few rows of one line, a body of %d, %d", sel, n, high, line, tall, count, bigClassSize, bigClassSize+1)
		}
	}

	// The grid's header and names stay in view however far it is scrolled, both ways, and the rows in
	// view are drawn: the last student's at the bottom.
	sticky := `(function(){var w=document.querySelector('.gridwrap');w.scrollIntoView();w.scrollTop=w.scrollHeight;w.scrollLeft=w.scrollWidth;
		return new Promise(function(done){requestAnimationFrame(function(){requestAnimationFrame(function(){
		var wr=w.getBoundingClientRect(),h=w.querySelector('thead th:nth-child(20)').getBoundingClientRect();
		var rows=w.querySelectorAll('tbody tr:not(.pad)'),last=rows[rows.length-1],name=last.cells[0].getBoundingClientRect();
		done([w.scrollTop>0&&w.scrollLeft>0, Math.abs(h.top-wr.top)<2, Math.abs(name.left-wr.left)<2, name.bottom<=wr.bottom+1&&name.top>=wr.top, last.getAttribute('data-i')].join(' '))})})})})()`
	if got, want := eval(sticky), fmt.Sprintf("true true true true %d", bigClassSize-1); got != want {
		t.Errorf("scrolled to the grid's far corner: scrolled, header at the top, names at the left, last name in view, its row = %s, want %s", got, want)
	}
	shot("grid-corner")
	// A failed cell there leads to that student's failure.
	cell := eval(`(function(){var rows=document.querySelectorAll('#grid tbody tr:not(.pad)'),r=rows[rows.length-1],td=r.querySelector('td.f,td.t,td.c');
		td.click();return location.hash+' '+r.getAttribute('data-i')})()`)
	do(chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#detail #st-%d", bigClassSize-1))))
	if !strings.HasPrefix(cell, fmt.Sprintf("#st-%d-c-", bigClassSize-1)) {
		t.Errorf("a failed cell of the grid's last row leads to %q", cell)
	}
	eval(`(function(){document.getElementById('close').click();return ''})()`)
	// Halfway down the grid, the rows in view are the students there.
	middle := `(function(){var w=document.querySelector('.gridwrap');w.scrollTop=w.scrollHeight/2;w.scrollLeft=0;
		return new Promise(function(done){requestAnimationFrame(function(){requestAnimationFrame(function(){
		var wr=w.getBoundingClientRect(),rows=w.querySelectorAll('tbody tr:not(.pad)'),seen=[];
		rows.forEach(function(r){var b=r.getBoundingClientRect();if(b.top>=wr.top&&b.bottom<=wr.bottom)seen.push(+r.getAttribute('data-i'));});
		done(seen.length+' '+seen[0]+' '+seen[seen.length-1]+' '+rows[0].cells[0].textContent)})})})})()`
	var seen, first, last int
	fmt.Sscan(eval(middle), &seen, &first, &last)
	if seen < 5 || first > bigClassSize/2 || last < bigClassSize/2 || last-first != seen-1 {
		t.Errorf("halfway down the grid: %d rows in view, %d to %d, want the rows around %d", seen, first, last, bigClassSize/2)
	}
	shot("grid-middle")

	// The class table's header stays at the top of the window halfway down, and the rows in view are
	// drawn there; at its end, the last student's row.
	head := `(function(){var t=document.getElementById('class');window.scrollTo(0,t.offsetTop+t.offsetHeight/2);
		return new Promise(function(done){requestAnimationFrame(function(){requestAnimationFrame(function(){
		var rows=Array.from(t.querySelectorAll('tbody tr:not(.pad)')).filter(function(r){var b=r.getBoundingClientRect();return b.top>=0&&b.bottom<=innerHeight;});
		done([Math.abs(t.tHead.rows[0].cells[0].getBoundingClientRect().top)<2, rows.length>10, rows.length&&rows[0].getAttribute('aria-rowindex')].join(' '))})})})})()`
	var top bool
	var inView bool
	var index int
	fmt.Sscan(eval(head), &top, &inView, &index)
	if !top || !inView || index < bigClassSize/2-40 || index > bigClassSize/2+2 {
		t.Errorf("halfway down the class table: header at the top %v, rows in view %v, the first row in view %d, want about %d", top, inView, index, bigClassSize/2)
	}
	shot("class-middle")
	end := `(function(){var t=document.getElementById('class');window.scrollTo(0,t.offsetTop+t.offsetHeight-innerHeight/2);
		return new Promise(function(done){requestAnimationFrame(function(){requestAnimationFrame(function(){
		var rows=t.querySelectorAll('tbody tr:not(.pad)'),r=rows[rows.length-1],b=r.getBoundingClientRect();
		done(r.cells[0].querySelector('a').textContent+'|'+(b.top>=0&&b.bottom<=innerHeight))})})})})()`
	if got, want := eval(end), rep.Students[bigClassSize-1].Name+"|true"; got != want {
		t.Errorf("at the end of the class table: %q, want %q", got, want)
	}

	// A search for a student's number finds that student's row.
	found := eval(`(function(){var q=document.getElementById('filter');q.value='Владимировна 4321';q.dispatchEvent(new Event('input'));
		var rows=document.querySelectorAll('#class tbody tr:not(.pad)');var out=document.getElementById('shown').textContent+'|'+rows.length+'|'+rows[0].cells[0].querySelector('a').getAttribute('href');
		q.value='';q.dispatchEvent(new Event('input'));return out})()`)
	if found != "1|1|#st-4321" {
		t.Errorf("the search for student 4321: shown|rows|link = %q, want 1|1|#st-4321", found)
	}

	// Ctrl-F, which would search only the rows drawn, goes to the filter, which searches them all.
	eval(`(function(){document.activeElement&&document.activeElement.blur();return ''})()`)
	do(chromedp.KeyEvent("f", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if got := eval(`document.activeElement.id`); got != "filter" {
		t.Errorf("after Ctrl-F the focus is on %q, want the filter", got)
	}
	eval(`(function(){document.activeElement.blur();return ''})()`)

	// A student's details load from details/ into a panel inside the window, the source fitting it.
	eval(`(function(){location.hash='st-4321-c-3';return ''})()`)
	do(chromedp.WaitVisible(chromedp.CSS("#detail #st-4321")))
	fits := `(function(){var p=document.getElementById('detail').getBoundingClientRect(),W=window.innerWidth,H=window.innerHeight;
		var pres=document.querySelectorAll('#detail pre.src'),ok=pres.length>0;
		for(var i=0;i<pres.length;i++){var r=pres[i].getBoundingClientRect();ok=ok&&r.left>=p.left&&r.right<=p.right+1&&r.height<=H;}
		var f=document.getElementById('st-4321-c-3');
		return [p.left>=0&&p.right<=W+1&&p.top>=0&&p.bottom<=H+1, ok, !!f, document.querySelectorAll('#detail h2').length===1].join(' ')})()`
	if got := eval(fits); got != "true true true true" {
		t.Errorf("student 4321's details: panel in the window, source fits it, the failure opened, one student = %s, want all true", got)
	}
	shot("student")
	name := eval(`document.querySelector('#detail h2').textContent`)
	if !strings.HasPrefix(name, rep.Students[4321].Name) {
		t.Errorf("the panel shows %q, want student 4321, %s", name, rep.Students[4321].Name)
	}
	eval(`(function(){document.getElementById('close').click();return ''})()`)

	// The advice filter shows the students advised on a rule, and none other.
	want := 0
	for _, st := range rep.Students {
		if len(st.Result.Advice) > 0 && st.Result.Advice[0].Rule == "body_close" {
			want++
		}
	}
	shown := eval(`(function(){var a=document.getElementById('advicefilter');a.value='body_close';a.dispatchEvent(new Event('change'));
		return document.getElementById('shown').textContent})()`)
	if shown != strconv.Itoa(want) || want == 0 {
		t.Errorf("the advice filter body_close shows %s students, want %d", shown, want)
	}
	eval(`(function(){window.scrollTo(0,document.getElementById('class').offsetTop-120);return ''})()`)
	shot("advice")
	t.Logf("report.html of %d students; screenshots in %s", bigClassSize, shots)
}
