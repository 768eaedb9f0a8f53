package grade

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// Worksheets of Moodles in languages grade has no titles for, made as such a Moodle writes them
// (gradingtable.php's order, its language's hiddenuser, yes and no, decimal separator and userdate),
// read by the order of their columns, filled in, and imported with the rules of Moodle's importer in
// that language (moodleImportAs: the importer finds the columns by the very titles the download wrote).

// bgWorksheet is the worksheet of a Bulgarian Moodle 4. From the Moodle app's Bulgarian strings
// (moodlehq/moodleapp src/assets/lang/bg.json, see moodleorder.go): "Участник" before every
// identifier, "Оценка", "Да", the decimal comma, the dates in "%A, %d %B %Y, %H:%M", the statuses
// ("Предадена за оценка", "Непредадена") and "Обратни коментари". The other titles are not known
// (no Bulgarian assign pack was found) and are worded here as a Bulgarian pack might word them:
// grade must not depend on them, and the identifier's is the Russian pack's word, to show that a
// known title beside unknown ones does not mislead the reader.
const bgWorksheet = "Идентификатор,Пълно име,Имейл адрес,Състояние,Оценка,Максимална оценка,Оценката може да бъде променена," +
	"Последна промяна (предаване),Последна промяна (оценка),Обратни коментари\n" +
	"Участник100001,Иванов Иван,ivan@example.com,Предадена за оценка,,\"10,00\",Да,\"вторник, 01 декември 2026, 20:00\",-,\n" +
	"Участник100002,Петрова Мария,maria@example.com,Предадена за оценка - Оценена,\"7,00\",\"10,00\",Да," +
	"\"вторник, 01 декември 2026, 20:10\",\"вторник, 01 декември 2026, 20:20\",\"<p>Добре</p>\"\n" +
	"Участник100009,Тодоров Тодор,todor@example.com,Непредадена,,\"10,00\",Не,-,-,\n"

// deWorksheet is a German Moodle's, of an assignment with a marking workflow and online text: the
// titles of the de pack's assign.php (recordid "ID", hiddenuser "Teilnehmer/in", maxgrade
// "Bestwertung", markingworkflowstate, gradecanbechanged, lastmodifiedsubmission, lastmodifiedgrade;
// the comments plugin's and online text's as that pack may word them).
const deWorksheet = "ID,Vollständiger Name,E-Mail-Adresse,Status,Bewertung,Bestwertung,Status des Bewertungsworkflows," +
	"Bewertung kann geändert werden,Zuletzt geändert (Abgabe),Texteingabe online,Zuletzt geändert (Bewertung),Feedback als Kommentar\n" +
	"Teilnehmer/in100001,Иванов Иван,ivan@example.com,Zur Bewertung abgegeben,,\"100,00\",Unbewertet,Ja,\"Dienstag, 1. Dezember 2026, 20:00\",,-,\n" +
	"Teilnehmer/in100002,Петрова Мария,maria@example.com,Zur Bewertung abgegeben,,\"100,00\",Unbewertet,Ja," +
	"\"Dienstag, 1. Dezember 2026, 20:10\",\"<pre>package main</pre>\",-,\n"

// esBlind is a Spanish Moodle's worksheet of an assignment with blind marking, downloaded by a
// teacher who may not see who is who: the identifier, the status, then the grade (es pack:
// lastmodifiedsubmission "Última modificación (entrega)", lastmodifiedgrade "Última modificación
// (calificación)"; the other titles as it may word them).
const esBlind = "Identificador,Estado,Calificación,Calificación máxima,La calificación puede ser cambiada," +
	"Última modificación (entrega),Última modificación (calificación),Comentarios de retroalimentación\n" +
	"Participante 100001,Enviado para calificar,,100.00,Sí,\"martes, 1 de diciembre de 2026, 20:00\",-,\n" +
	"Participante 100002,Enviado para calificar,,100.00,Sí,\"martes, 1 de diciembre de 2026, 20:05\",-,\n" +
	"Participante 100003,Enviado para calificar,,100.00,Sí,-,-,\n"

// bgNoComments is bgWorksheet without its last column, the comments plugin's.
func bgNoComments() string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(bgWorksheet, "\n") {
		if line == "" {
			continue
		}
		i := strings.LastIndex(line, ",")
		b.WriteString(line[:i] + "\n")
	}
	return b.String()
}

func TestMoodleWorksheetByOrder(t *testing.T) {
	now := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)
	tests := []struct {
		name, sheet string
		importer    moodleTitles // the strings of that Moodle's importer
		max         float64
		gradedAt    map[string]int64 // when Moodle's grade was last changed
		wantNames   []string
		wantTime    time.Time // 100001's submission time
		want        map[string]moodleRow
	}{
		{
			name: "bulgarian", sheet: bgWorksheet,
			importer: moodleTitles{recordid: "Идентификатор", grade: "Оценка", modified: "Последна промяна (оценка)", feedback: "Обратни коментари", hiddenuser: "Участник"},
			max:      10,
			// Maria was graded in Moodle at 20:20: the importer reads the Bulgarian time as no time
			// (strtotime), so it keeps Moodle's grade and comments, as it should.
			gradedAt:  map[string]int64{"100002": time.Date(2026, 12, 1, 20, 20, 0, 0, time.UTC).Unix()},
			wantNames: []string{"Иванов Иван", "Петрова Мария", "Тодоров Тодор"},
			wantTime:  time.Date(2026, 12, 1, 20, 0, 0, 0, time.Local),
			want: map[string]moodleRow{"100001": {grade: 7.5, feedback: "Пройдено"}, "100002": {grade: -1},
				"100009": {grade: -1}},
		},
		{
			name: "german, marking workflow and online text", sheet: deWorksheet,
			importer: moodleTitles{recordid: "ID", grade: "Bewertung", modified: "Zuletzt geändert (Bewertung)", feedback: "Feedback als Kommentar", hiddenuser: "Teilnehmer/in"},
			max:      100,
			// German month names are not read: the time is unknown (never late), not a wrong one.
			wantNames: []string{"Иванов Иван", "Петрова Мария"},
			want:      map[string]moodleRow{"100001": {grade: 75, feedback: "Пройдено"}, "100002": {grade: 100, feedback: "Минаха"}},
		},
		{
			// The comments plugin was off: no feedback column, and grade does not know its title in
			// Bulgarian, so the grades go in alone (the feedback is in the zip).
			name: "bulgarian without feedback comments", sheet: bgNoComments(),
			importer:  moodleTitles{recordid: "Идентификатор", grade: "Оценка", modified: "Последна промяна (оценка)", hiddenuser: "Участник"},
			max:       10,
			gradedAt:  map[string]int64{"100002": time.Date(2026, 12, 1, 20, 20, 0, 0, time.UTC).Unix()},
			wantNames: []string{"Иванов Иван", "Петрова Мария", "Тодоров Тодор"},
			wantTime:  time.Date(2026, 12, 1, 20, 0, 0, 0, time.Local),
			want:      map[string]moodleRow{"100001": {grade: 7.5}, "100002": {grade: -1}, "100009": {grade: -1}},
		},
		{
			name: "spanish, blind marking", sheet: esBlind,
			importer:  moodleTitles{recordid: "Identificador", grade: "Calificación", modified: "Última modificación (calificación)", feedback: "Comentarios de retroalimentación", hiddenuser: "Participante "},
			max:       100,
			wantNames: []string{"Participante 100001", "Participante 100002", "Participante 100003"},
			want:      map[string]moodleRow{"100001": {grade: 75, feedback: "Пройдено"}, "100002": {grade: 100, feedback: "Минаха"}, "100003": {grade: -1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ro := rosterOf(t, tt.sheet)
			var names []string
			for _, s := range ro.Students {
				names = append(names, s.Name)
			}
			if ro.Layout != LayoutMoodle || strings.Join(names, "|") != strings.Join(tt.wantNames, "|") {
				t.Fatalf("got %s %q, want a Moodle worksheet of %q", ro.Layout, names, tt.wantNames)
			}
			if got := ro.Students[0].Submitted; !got.Equal(tt.wantTime) {
				t.Errorf("the first submission time reads as %v, want %v", got, tt.wantTime)
			}
			rep := exportReport(LayoutMoodle)
			if strings.Contains(tt.name, "blind") {
				for i := range rep.Students {
					rep.Students[i].Name = "Participante " + rep.Students[i].ID
				}
			}
			data := MoodleCSV(rep, ro, now)
			lines := strings.Split(string(data), "\n")
			if want := strings.SplitN(tt.sheet, "\n", 2)[0]; lines[0] != want {
				t.Errorf("the titles were not kept:\n got %s\nwant %s", lines[0], want)
			}
			ids := map[string]bool{}
			for _, s := range ro.Students {
				ids[s.ID] = true
			}
			got, err := moodleImportAs(t, data, tt.importer, ids, tt.max, tt.gradedAt)
			if err != nil {
				t.Fatalf("%v:\n%s", err, data)
			}
			for id, w := range tt.want {
				g, ok := got[id]
				if !ok || g.grade != w.grade || (w.feedback == "" && g.feedback != "") || !strings.Contains(g.feedback, w.feedback) {
					t.Errorf("%s imports as %+v (found %v), want the grade %v and feedback with %q", id, g, ok, w.grade, w.feedback)
				}
			}
			// Kept as read: results.json's copy of the roster reads the same way again.
			again, err := ro.File().Roster()
			if err != nil || again.gradeCol != ro.gradeCol || again.feedbackCol != ro.feedbackCol || again.submittedCol != ro.submittedCol {
				t.Errorf("read again from the report: %+v, %v", again, err)
			}
		})
	}
}

// TestMoodleWorksheetByOrderRefused: a worksheet whose grade, last modified (grade) or feedback
// column cannot be told for certain is refused before anything is graded, never guessed into.
func TestMoodleWorksheetByOrderRefused(t *testing.T) {
	hdr := "A,B,C,D,E,F,G,H,I,J\n"
	tests := []struct {
		name, sheet, code string
	}{
		{"a scale, not points: no maximum grade", "A,B,C,D,E,F,G,H,I\n" +
			"Участник1,Иван,Предадена за оценка,,\"Добре\nЗле\",Да,-,-,\n", RosterNoGrade},
		{"no grade can be changed", hdr +
			"Участник1,Иван,ivan@example.com,Предадена за оценка,,\"10,00\",\"вторник, 01 декември 2026, 20:00\",-,,\n", RosterNoGrade},
		{"a maximum that differs between rows", hdr +
			"Участник1,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-,-,\n" +
			"Участник2,Мария,m@example.com,Предадена за оценка,,\"20,00\",Да,-,-,\n", RosterNoGrade},
		{"a grade above the maximum", hdr +
			"Участник1,Иван,i@example.com,Предадена за оценка,\"11,00\",\"10,00\",Да,-,-,\n", RosterNoGrade},
		{"two columns of times after the submission: which is the grade's?", "A,B,C,D,E,F,G,H,I,J,K\n" +
			"Участник1,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-,-,-,\n", RosterNoGrade},
		{"two columns after last modified (grade): which is the comments?", "A,B,C,D,E,F,G,H,I,J,K\n" +
			"Участник1,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-,-,,Цел: добре\n", RosterNoGrade},
		{"no last modified (grade)", "A,B,C,D,E,F,G,H\n" +
			"Участник1,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-\n", RosterNoGrade},
		{"identifiers of another word", hdr +
			"Участник1,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-,-,\n" +
			"Participant 2,Мария,m@example.com,Предадена за оценка,,\"10,00\",Да,-,-,\n", RosterBadID},
		{"no identifiers at all", hdr + "Иван,Иван,i@example.com,Предадена за оценка,,\"10,00\",Да,-,-,\n", RosterUnknown},
		{"titles alone", hdr, RosterUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "worksheet.csv")
			os.WriteFile(p, []byte(tt.sheet), 0o644)
			_, err := ReadRoster(p, "", nil)
			var re *RosterError
			if !errors.As(err, &re) || re.Code != tt.code {
				t.Fatalf("got %v, want the code %s", err, tt.code)
			}
			if msg := JobMessage(err); msg.ID != "grade_err_roster_"+tt.code {
				t.Errorf("the message is %s", msg.ID)
			}
		})
	}
}

// TestMoodleWorksheetByOrderSaved: the Bulgarian worksheet saved again by a spreadsheet in a
// Bulgarian locale (a byte order mark, semicolons, CRLF; Windows-1251) reads as the downloaded one.
func TestMoodleWorksheetByOrderSaved(t *testing.T) {
	want := rosterOf(t, bgWorksheet)
	rows := mustCSV(t, bgWorksheet)
	var semi strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				semi.WriteString(";")
			}
			if strings.ContainsAny(c, ";\"\n") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			semi.WriteString(c)
		}
		semi.WriteString("\r\n")
	}
	cp1251, err := charmap.Windows1251.NewEncoder().String(semi.String())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"utf-8 with a BOM": utf8BOM + semi.String(), "windows-1251": cp1251} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "worksheet.csv")
			os.WriteFile(p, []byte(data), 0o644)
			got, err := ReadRoster(p, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.gradeCol != want.gradeCol || got.maxCol != want.maxCol || got.submittedCol != want.submittedCol ||
				got.feedbackCol != want.feedbackCol || len(got.Students) != len(want.Students) || got.Students[1].Name != "Петрова Мария" {
				t.Errorf("got columns %d %d %d %d and %d students, want %d %d %d %d and %d", got.gradeCol, got.maxCol, got.submittedCol,
					got.feedbackCol, len(got.Students), want.gradeCol, want.maxCol, want.submittedCol, want.feedbackCol, len(want.Students))
			}
		})
	}
}
