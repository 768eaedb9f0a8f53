package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	workbook "github.com/workbook-course/workbook"
	"github.com/workbook-course/workbook/internal/course"
	"github.com/workbook-course/workbook/internal/i18n"
)

// TestReadmeCourseOrder keeps the README's list of the course in the one course order every command
// uses (plan): lessons by their order, each with its exercises by theirs.
func TestReadmeCourseOrder(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start, end := strings.Index(text, "<!-- course-order -->"), strings.Index(text, "<!-- /course-order -->")
	if start < 0 || end < start {
		t.Fatal("README.md has no <!-- course-order --> … <!-- /course-order --> block")
	}
	var got []string
	for _, item := range regexp.MustCompile(`(?m)^\d+\. `).Split(text[start+len("<!-- course-order -->"):end], -1) {
		names := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(item, -1)
		for _, n := range names {
			got = append(got, n[1])
		}
	}
	e := &env{course: course.New(workbook.Content()), ui: i18n.New("en"), content: "ru"}
	steps, err := e.course.Plan("ru")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range steps {
		if s.Lesson != nil {
			want = append(want, s.Lesson.Topic)
		}
		for _, ex := range s.Exercises {
			want = append(want, ex.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("README.md's course order:\n  %v\nwant (the course's own order):\n  %v", got, want)
	}
}
