package lesson

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// vtimeLesson has a program that runs in virtual time (an hour of sleep, exact), one copied from it
// (virtual too), a plain program beside them, and a virtual one that leaves a goroutine blocked.
const vtimeLesson = front + // lines 1-5
	"```go program=slow virtual\nfunc main() {\n\tstart := time.Now()\n\ttime.Sleep(time.Hour)\n\tfmt.Println(time.Since(start), start.Year())\n}\n```\n" + // 6-12
	"```output\n1h0m0s 2000\n```\n" + // 13-15
	"```go program=slower from=slow\nfunc main() {\n\tctx, cancel := context.WithTimeout(context.Background(), 90*time.Minute)\n\tdefer cancel()\n\t<-ctx.Done()\n\tfmt.Println(ctx.Err())\n}\n```\n" + // 16-23
	"```output\ncontext deadline exceeded\n```\n" + // 24-26
	"```go program=plain\nfunc main() { fmt.Println(time.Now().Year() > 2000) }\n```\n" + // 27-29
	"```output\ntrue\n```\n" + // 30-32
	"```go program=leak virtual\nfunc main() {\n\tch := make(chan int)\n\tgo func() { ch <- 1 }()\n\tfmt.Println(\"done\")\n}\n```\n" + // 33-39
	"```output\ndone\n```\n" // 40-42

func TestVirtualLesson(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	l, err := Parse("lessons/x/bg.md", []byte(vtimeLesson))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		want bool
	}{{"slow", true}, {"slower", true}, {"plain", false}, {"leak", true}} {
		src, err := Assemble(l, tt.name, len(l.Blocks)-1, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := IsVirtual(src); got != tt.want {
			t.Errorf("IsVirtual(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	errs, err := (&Runner{}).Check(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d:%s", e.Line, e.Code))
	}
	// Only the program that leaves a goroutine blocked fails: it does not finish cleanly.
	if want := []string{"40:run"}; !slices.Equal(got, want) {
		t.Errorf("problems = %v, want %v\n%v", got, want, errs)
	}
	if len(errs) == 1 && !strings.Contains(errs[0].Error(), "goroutine") {
		t.Errorf("the leak's problem does not name the goroutine: %v", errs[0])
	}
}

// TestVirtualReadmeExamples runs the examples of lessons/README.md ("Programs in virtual time"), kept
// in testdata/virtual/bg.md as the README shows them.
func TestVirtualReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	data, err := os.ReadFile("testdata/virtual/bg.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../lessons/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.SplitAfter(string(data), "```\n") {
		if b := strings.TrimSpace(block); strings.HasPrefix(b, "```go") && !strings.Contains(string(readme), b) {
			t.Errorf("lessons/README.md no longer shows this example:\n%s", b)
		}
	}
	l, err := Parse("lessons/virtual/bg.md", data)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := (&Runner{}).Check(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}
}
