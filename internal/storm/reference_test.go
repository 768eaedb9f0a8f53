package storm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReferenceAgrees ties this model to what the course teaches with it: the reference solutions of
// exercise-storm (whose expected transcripts every check compares against) are built and run on the
// lesson's scenarios (with and without an attempt limit), on the scenarios of TestNaiveAgrees and on scenarios drawn from the exercise's
// ranges with a fixed seed, in both languages, and every number they print must be the one Run gives.
// TestLessonFigures pins the figures the lesson quotes to Run in turn, so the lesson, the exercise
// and this model cannot drift apart.
func TestReferenceAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the reference solutions")
	}
	root := "../../solutions/exercise-storm"
	if _, err := os.Stat(root); err != nil {
		t.Skip("no solutions beside the package")
	}
	scenarios := referenceScenarios()
	for _, lang := range []string{"ru", "bg"} {
		t.Run(lang, func(t *testing.T) {
			exe := filepath.Join(t.TempDir(), "storm")
			build := exec.Command("go", "build", "-o", exe, ".")
			build.Dir = filepath.Join(root, lang)
			build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod", "GOWORK=off")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			for _, p := range scenarios {
				args := p.args()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				out, err := exec.CommandContext(ctx, exe, args...).Output()
				cancel()
				if err != nil {
					t.Fatalf("%s %s: %v", lang, strings.Join(args, " "), err)
				}
				got, err := parseReport(string(out))
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", lang, strings.Join(args, " "), err, out)
				}
				want := Run(p)
				want.Load = nil
				if got != (reported{want.Served, want.GaveUp, want.Half, want.All, want.Requests, want.Peak}) {
					t.Errorf("%s %s:\nreference %+v\nmodel     %+v", lang, strings.Join(args, " "), got, want)
				}
			}
		})
	}
}

// referenceScenarios are the scenarios TestReferenceAgrees runs: the lesson's under every rule, at
// its length and twenty times longer, with free and with costly refusals; TestNaiveAgrees' edge
// cases; and 24 drawn from exercise-storm's generator ranges (exercise.yaml) with a fixed seed.
func referenceScenarios() []Params {
	var list []Params
	for _, rule := range Rules() {
		for _, cost := range []int{0, 10} {
			for _, ticks := range []int{600, 12000} {
				p := Lesson()
				p.Rule, p.Cost, p.Ticks = rule, cost, ticks
				list = append(list, p)
			}
		}
	}
	for _, p := range []Params{
		{Clients: 300, Down: 40, Rate: 7, Cost: 10, Base: 1, Cap: 64, Seed: 1, Ticks: 900},
		{Clients: 1, Down: 0, Rate: 1, Cost: 0, Base: 1, Cap: 1, Seed: 0, Ticks: 5},
		{Clients: 500, Down: 30, Rate: 3, Cost: 50, Base: 3, Cap: 40, Seed: 65535, Ticks: 700},
		{Clients: 120, Down: 1000, Rate: 5, Cost: 0, Base: 2, Cap: 9, Seed: 42, Ticks: 300},
	} {
		for _, rule := range Rules() {
			p.Rule = rule
			list = append(list, p)
		}
	}
	for _, attempts := range []int{1, 6, 9, 16} { // the attempt limit, short of the outage and past it
		for _, rule := range Rules() {
			for _, cost := range []int{0, 10} {
				p := Lesson()
				p.Rule, p.Cost, p.Attempts = rule, cost, attempts
				list = append(list, p)
			}
		}
	}
	rnd := rand.New(rand.NewPCG(2026, 12))
	in := func(lo, hi int) int { return lo + rnd.IntN(hi-lo+1) }
	for range 24 {
		p := Params{Rule: Rules()[rnd.IntN(len(Rules()))], Clients: in(1, 3000), Down: in(0, 150),
			Rate: in(0, 80), Cost: in(0, 99), Base: in(1, 5), Seed: in(0, 65535), Ticks: in(1, 1500)}
		p.Cap = in(max(5, p.Base), 300)
		if rnd.IntN(2) == 0 {
			p.Attempts = in(1, 20)
		}
		list = append(list, p)
	}
	return list
}

// args are the command-line arguments of exercise-storm for p.
func (p Params) args() []string {
	return []string{"-rule", ruleNames[p.Rule], "-clients", strconv.Itoa(p.Clients), "-down", strconv.Itoa(p.Down),
		"-rate", strconv.Itoa(p.Rate), "-cost", strconv.Itoa(p.Cost), "-base", strconv.Itoa(p.Base),
		"-cap", strconv.Itoa(p.Cap), "-seed", strconv.Itoa(p.Seed), "-ticks", strconv.Itoa(p.Ticks),
		"-attempts", strconv.Itoa(p.Attempts)}
}

// reported is what exercise-storm prints, in Result's units (ticks; -1 for "never").
type reported struct {
	Served, GaveUp int
	Half, All      int
	Requests       int64
	Peak           int
}

var (
	reportNumber = regexp.MustCompile(`\d+(?:,\d)?`)
	reportLabels = [][2]string{ // the labels of the seven lines, Russian and Bulgarian
		{"правило:", "правило:"}, {"обслужено:", "обслужени:"}, {"сдались:", "отказали се:"},
		{"больше половины:", "над половината:"},
		{"все:", "всички:"}, {"запросов:", "заявки:"}, {"пик после подъёма:", "пик след вдигането:"},
	}
)

// parseReport reads the seven lines of exercise-storm's transcript in either language.
func parseReport(out string) (reported, error) {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(reportLabels) {
		return reported{}, fmt.Errorf("%d lines, want %d", len(lines), len(reportLabels))
	}
	nums := make([][]string, len(lines))
	for i, l := range lines {
		if !strings.HasPrefix(l, reportLabels[i][0]) && !strings.HasPrefix(l, reportLabels[i][1]) {
			return reported{}, fmt.Errorf("line %d: %q, want it to open with %q", i+1, l, reportLabels[i][0])
		}
		nums[i] = reportNumber.FindAllString(l, -1)
	}
	moment := func(ns []string) (int, error) {
		if len(ns) == 0 {
			return -1, nil // не дождались / не дочакаха
		}
		whole, tenth, _ := strings.Cut(ns[0], ",")
		w, err := strconv.Atoi(whole)
		d, err2 := strconv.Atoi(tenth)
		if err != nil || err2 != nil {
			return 0, fmt.Errorf("moment %q", ns[0])
		}
		return 10*w + d, nil // tick t is shown as t/10 s
	}
	var r reported
	var err error
	atoi := func(s string) int {
		n, e := strconv.Atoi(s)
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	if len(nums[1]) < 1 || len(nums[2]) < 1 || len(nums[5]) < 1 || len(nums[6]) < 1 {
		return r, fmt.Errorf("a line without its number: %q", lines)
	}
	r.Served, r.GaveUp = atoi(nums[1][0]), atoi(nums[2][0])
	r.Requests, r.Peak = int64(atoi(nums[5][0])), atoi(nums[6][0])
	if r.Half, err = moment(nums[3]); err != nil {
		return r, err
	}
	r.All, err = moment(nums[4])
	return r, err
}
