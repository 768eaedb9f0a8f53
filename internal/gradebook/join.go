package gradebook

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/workbook-course/workbook/internal/grade"
)

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// layoutOf is the LMS layout of a report: its roster's, else the one its students came in, "" for
// none; ok false when its students came in more than one.
func layoutOf(rep *grade.Report) (string, bool) {
	if rep.Roster != nil {
		return rep.Roster.Layout, true
	}
	layout := ""
	for _, st := range rep.Students {
		if st.Layout == "" {
			continue
		}
		if layout != "" && st.Layout != layout {
			return "", false
		}
		layout = st.Layout
	}
	return layout, true
}

// identity is the key a student of a report is joined by, and the id shown for them.
type identity struct {
	key, id string
}

// moodleKey is the identity a Moodle class's reports are joined by: the first of
// grade.IdentityKinds that every report's worksheet shows, "" when there is none (the students
// are then joined by the names Moodle shows).
func moodleKey(reps []*grade.Report) string {
	for _, kind := range grade.IdentityKinds {
		all := true
		for _, rep := range reps {
			all = all && rep.Roster.Identities(kind) != nil
		}
		if all {
			return kind
		}
	}
	return ""
}

// identities keys the students of the report in dir (see the package doc); key is the Moodle
// identity a Moodle class is joined by (moodleKey).
func identities(rep *grade.Report, layout, key, dir string) (map[string]identity, error) {
	var keys map[string]string
	if layout == grade.LayoutMoodle && key != "" {
		keys = rep.Roster.Identities(key)
	}
	out := map[string]identity{}
	for _, st := range rep.Students {
		var id identity
		switch {
		case st.Conflict != "":
			// An entry that reads as more than one student stands alone, as in grade's report.
			id = identity{key: "conflict:" + rep.Exercise + ":" + st.Name}
		case layout == grade.LayoutCanvas && st.Anonymous:
			return nil, &Error{Code: "anonymous", Report: dir, Student: st.Name}
		case layout == grade.LayoutCanvas && st.ID != "":
			id = identity{"canvas:" + st.ID, st.ID}
		case layout == grade.LayoutClassroom && st.ID != "":
			id = identity{"github:" + strings.ToLower(st.ID), st.ID}
		case layout == grade.LayoutMoodle && keys[st.ID] != "":
			id = identity{key + ":" + keys[st.ID], keys[st.ID]}
		case layout == grade.LayoutMoodle && st.Display != "":
			id = identity{key: "moodle-name:" + st.Display}
		default:
			id = identity{key: "name:" + st.Name}
		}
		out[st.Name] = id
	}
	// Two students of one report with one key cannot be told apart in another report.
	by := map[string]string{}
	for _, st := range rep.Students {
		k := out[st.Name].key
		if prev, dup := by[k]; dup {
			return nil, &Error{Code: "ambiguous", Report: dir, Student: st.Name, Detail: prev}
		}
		by[k] = st.Name
	}
	return out, nil
}

// join makes the rows: one per identity found in any report, with a cell per exercise.
func (b *Book) join() error {
	var err error
	if b.Layout, err = b.classLayout(); err != nil {
		return err
	}
	key := moodleKey(b.reports)
	keys := make([]map[string]identity, len(b.reports))
	for i, rep := range b.reports {
		ids, err := identities(rep, b.Layout, key, b.Exercises[i].Report)
		if err != nil {
			return err
		}
		keys[i] = ids
	}
	if err := b.sameClass(keys); err != nil {
		return err
	}
	rows := map[string]*Row{}
	var order []string
	for i, rep := range b.reports {
		canvas := canvasCells(rep)
		moodle := map[string]map[string]string{}
		if b.Layout == grade.LayoutMoodle {
			for _, kind := range grade.IdentityKinds {
				moodle[kind] = rep.Roster.Identities(kind)
			}
		}
		for _, st := range rep.Students {
			id := keys[i][st.Name]
			r := rows[id.key]
			if r == nil {
				r = &Row{Key: id.key, Name: st.Name, Display: st.Display, ID: id.id, Cells: make([]Cell, len(b.Exercises))}
				rows[id.key] = r
				order = append(order, id.key)
			}
			if r.Display == "" {
				r.Display = st.Display
			}
			if st.Lang != "" && st.Status != grade.StatusMissing {
				r.Lang = st.Lang // the last exercise's, in the course's order
			}
			if c := canvas[st.ID]; c != nil {
				r.canvas = c
			}
			for kind, ids := range moodle {
				if v := ids[st.ID]; v != "" && st.Conflict == "" {
					if r.Moodle == nil {
						r.Moodle = map[string]string{}
					}
					r.Moodle[kind] = v
				}
			}
			r.Cells[i] = Cell{Graded: true, Status: st.Status, Score: st.Score, Passed: st.Passed, Total: st.Total, Late: st.Late, Penalty: st.Penalty}
		}
	}
	// A student with no program in any report reads their summary in the class's commonest language.
	langs := map[string]int{}
	for _, r := range rows {
		if r.Lang != "" {
			langs[r.Lang]++
		}
	}
	common := "ru"
	for _, l := range []string{"bg", "ru"} {
		if langs[l] > langs[common] {
			common = l
		}
	}
	for _, k := range order {
		r := rows[k]
		if r.Lang == "" {
			r.Lang = common
		}
		b.Students = append(b.Students, *r)
	}
	sort.Slice(b.Students, func(i, j int) bool {
		if b.Students[i].Name != b.Students[j].Name {
			return b.Students[i].Name < b.Students[j].Name
		}
		return b.Students[i].Key < b.Students[j].Key
	})
	b.nameSummaries()
	b.MoodleIdentity = b.moodleIdentity()
	return nil
}

// moodleIdentity is the identity moodle.csv finds students by: of grade.IdentityKinds, the one
// the most students have (the first of them among as many); "" when no student has any.
func (b *Book) moodleIdentity() string {
	best, most := "", 0
	for _, kind := range grade.IdentityKinds {
		n := 0
		for _, r := range b.Students {
			if r.Moodle[kind] != "" {
				n++
			}
		}
		if n > most {
			best, most = kind, n
		}
	}
	return best
}

// MoodleUnmatched are the students moodle.csv leaves out: those the grading worksheets give no
// identity of the kind it finds students by (Book.MoodleIdentity), whom Moodle's import could not
// find. Nil for a class not of Moodle's.
func (b *Book) MoodleUnmatched() []string {
	if b.Layout != grade.LayoutMoodle {
		return nil
	}
	var out []string
	for _, r := range b.Students {
		if b.MoodleIdentity == "" || r.Moodle[b.MoodleIdentity] == "" {
			out = append(out, r.Name)
		}
	}
	return out
}

// classLayout is the LMS layout of the class: the one most reports came in; a report of another,
// or one whose students came in several, is refused.
func (b *Book) classLayout() (string, error) {
	// The layout most reports came in is the class's; the first report of another is named.
	layouts := make([]string, len(b.reports))
	count := map[string]int{}
	for i, rep := range b.reports {
		l, ok := layoutOf(rep)
		if !ok {
			return "", &Error{Code: "mixed_lms", Report: b.Exercises[i].Report, Detail: "?"}
		}
		layouts[i] = l
		count[l]++
	}
	layout := layouts[0]
	for _, l := range layouts {
		if count[l] > count[layout] {
			layout = l
		}
	}
	for i, l := range layouts {
		if l != layout {
			return "", &Error{Code: "mixed_lms", Report: b.Exercises[i].Report, Detail: fmt.Sprintf("%s / %s", orNone(layout), orNone(l))}
		}
	}
	return layout, nil
}

// nameSummaries names each row's summary file as grade names feedback files; two rows of one name
// (two students the LMS tells apart) are told apart by their ids.
func (b *Book) nameSummaries() {
	count := map[string]int{}
	for _, r := range b.Students {
		count[r.Name]++
	}
	files := make([]string, len(b.Students))
	for i, r := range b.Students {
		files[i] = r.Name
		if count[r.Name] > 1 {
			files[i] = r.Name + " " + strings.TrimPrefix(r.Key, strings.SplitN(r.Key, ":", 2)[0]+":")
		}
	}
	stems := grade.FeedbackNames(files)
	for i := range b.Students {
		b.Students[i].Summary = stems[files[i]]
	}
}

// sameClass refuses reports of different classes: each report must share at least half of its
// students with the others together (a roster lists everyone, so the reports of one class share
// nearly all; another class's share none).
func (b *Book) sameClass(keys []map[string]identity) error {
	if len(keys) < 2 {
		return nil
	}
	count := map[string]int{}
	for _, ids := range keys {
		for _, id := range ids {
			count[id.key]++
		}
	}
	for i, ids := range keys {
		shared, all := 0, 0
		for _, id := range ids {
			if strings.HasPrefix(id.key, "conflict:") {
				continue
			}
			all++
			if count[id.key] > 1 {
				shared++
			}
		}
		if all > 0 && shared*2 < all {
			return &Error{Code: "mixed_classes", Report: b.Exercises[i].Report, Detail: fmt.Sprintf("%d/%d", shared, all)}
		}
	}
	return nil
}

// canvasCells is the SIS User ID, SIS Login ID and Section of each student of a Canvas roster.
func canvasCells(rep *grade.Report) map[string][]string {
	if rep.Roster == nil || rep.Roster.Layout != grade.LayoutCanvas || len(rep.Roster.Rows) == 0 {
		return nil
	}
	hdr := rep.Roster.Rows[0]
	col := func(name string) int {
		for i, h := range hdr {
			if h == name {
				return i
			}
		}
		return -1
	}
	cols := []int{col("SIS User ID"), col("SIS Login ID"), col("Section")}
	out := map[string][]string{}
	for _, row := range rep.Roster.Rows[1:] {
		if len(row) < 2 {
			continue
		}
		cells := make([]string, len(cols))
		for k, c := range cols {
			if c >= 0 && c < len(row) {
				cells[k] = row[c]
			}
		}
		out[strings.TrimSpace(row[1])] = cells
	}
	return out
}

func orNone(layout string) string {
	if layout == "" {
		return "-"
	}
	return layout
}
