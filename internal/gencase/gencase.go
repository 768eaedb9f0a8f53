// Package gencase draws cases afresh: an exercise declares in its exercise.yaml how valid arguments
// are drawn, and the expected output of each drawn case comes from running the exercise's reference
// solution. A program that knows the files in cases/ by heart, or hunts them, fails them.
//
//	spec, err := gencase.Parse(yamlBytes)          // the "generate:" section, nil if there is none
//	ref, err := gencase.Reference(ctx, solutionDir)  // built once, cached by content hash
//	cases, drawn, err := gencase.Cases(ctx, spec, seed, ref, "bg")
//
// The section looks like this (every field but args is optional):
//
//	generate:
//	  count: 4                      # cases drawn each time (default 4)
//	  args:                         # flags, in this order
//	    - flag: -rule
//	      choice: [now, fixed, full]
//	    - flag: -clients
//	      range: [1, 3000]          # an integer from 1 to 3000, both included
//	    - flag: -cap
//	      range: [1, 300]
//	      optional: true            # left out half of the time (the program's default applies)
//	  rest:                         # arguments after the flags
//	    choice: [timeout, "503", ok]
//	    length: [0, 6]              # how many, from 0 to 6
//	    join: true                  # as one argument, the drawn pieces written together ("x.x..")
//
// A drawn case is a hidden case: it is named drawn-1, drawn-2, …, titled "drawn arguments N" in
// each language, and its expected text is never shown before the learner's output differs from it.
// The same seed draws the same arguments, so a grade can be reproduced.
package gencase

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/workbook-course/workbook/checker"
)

// Spec is how an exercise's valid arguments are drawn.
type Spec struct {
	Count int   `yaml:"count"`
	Args  []Arg `yaml:"args"`
	Rest  *Rest `yaml:"rest"`
	// Metrics makes every drawn case a scenario case (`run ARGS` then `metrics`): it judges the
	// program's figures against the limits the scenario states, so no reference is run.
	Metrics bool `yaml:"metrics"`
}

// Arg is one flag and how its value is drawn: from Range (two integers, both included) or from
// Choice.
type Arg struct {
	Flag     string   `yaml:"flag"`
	Range    []int    `yaml:"range"`
	Choice   []string `yaml:"choice"`
	Optional bool     `yaml:"optional"`
}

// Rest is how the arguments after the flags are drawn: Length (two integers) pieces from Choice,
// each its own argument or, with Join, all written together as one.
type Rest struct {
	Choice []string `yaml:"choice"`
	Length []int    `yaml:"length"`
	Join   bool     `yaml:"join"`
}

// DefaultCount is how many cases are drawn when a Spec does not say.
const DefaultCount = 4

// Parse reads the "generate:" section of an exercise.yaml. It returns nil, nil when there is none.
func Parse(exerciseYAML []byte) (*Spec, error) {
	var doc struct {
		Generate *Spec `yaml:"generate"`
	}
	if err := yaml.Unmarshal(exerciseYAML, &doc); err != nil {
		return nil, err
	}
	if doc.Generate == nil {
		return nil, nil
	}
	if err := doc.Generate.Validate(); err != nil {
		return nil, err
	}
	return doc.Generate, nil
}

// Validate says what is wrong with a Spec.
func (s *Spec) Validate() error {
	if s.Count < 0 || s.Count > 50 {
		return fmt.Errorf("generate: count %d is not from 0 to 50", s.Count)
	}
	if len(s.Args) == 0 && s.Rest == nil {
		return errors.New("generate: neither args nor rest says what to draw")
	}
	for i, a := range s.Args {
		if !strings.HasPrefix(a.Flag, "-") || strings.ContainsAny(a.Flag, " \t=") {
			return fmt.Errorf("generate: args[%d]: flag %q must look like -name", i, a.Flag)
		}
		if err := drawable(a.Range, a.Choice); err != nil {
			return fmt.Errorf("generate: %s: %w", a.Flag, err)
		}
	}
	if r := s.Rest; r != nil {
		if len(r.Choice) == 0 {
			return errors.New("generate: rest: no choice")
		}
		if len(r.Length) != 2 || r.Length[0] < 0 || r.Length[0] > r.Length[1] || r.Length[1] > 1000 {
			return errors.New("generate: rest: length must be [MIN, MAX] with 0 ≤ MIN ≤ MAX ≤ 1000")
		}
	}
	return nil
}

func drawable(rng []int, choice []string) error {
	switch {
	case len(rng) > 0 && len(choice) > 0:
		return errors.New("range and choice both given")
	case len(choice) > 0:
		return nil
	case len(rng) != 2:
		return errors.New("range must be [MIN, MAX]")
	case rng[0] > rng[1]:
		return fmt.Errorf("range [%d, %d] is empty", rng[0], rng[1])
	}
	return nil
}

// count is how many cases the Spec draws.
// CaseCount is how many cases are drawn each time: Count, else DefaultCount.
func (s *Spec) CaseCount() int { return s.count() }

func (s *Spec) count() int {
	if s.Count == 0 {
		return DefaultCount
	}
	return s.Count
}

// Draw draws one list of arguments.
func (s *Spec) Draw(r *rand.Rand) []string {
	var args []string
	for _, a := range s.Args {
		if a.Optional && r.IntN(2) == 0 {
			continue
		}
		if len(a.Choice) > 0 {
			args = append(args, a.Flag, a.Choice[r.IntN(len(a.Choice))])
		} else {
			args = append(args, a.Flag, strconv.Itoa(a.Range[0]+r.IntN(a.Range[1]-a.Range[0]+1)))
		}
	}
	if rest := s.Rest; rest != nil {
		n := rest.Length[0] + r.IntN(rest.Length[1]-rest.Length[0]+1)
		pieces := make([]string, n)
		for i := range pieces {
			pieces[i] = rest.Choice[r.IntN(len(rest.Choice))]
		}
		if rest.Join {
			if n > 0 {
				args = append(args, strings.Join(pieces, ""))
			}
		} else {
			args = append(args, pieces...)
		}
	}
	return args
}

// Drawn is one drawn case, for a report to record: its name and its arguments.
type Drawn struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
}

// drawnPrefix starts the name of every drawn case: drawn-1, drawn-2, …
const drawnPrefix = "drawn-"

// DrawnNumber is the number of the drawn case name names (drawn-3: 3); ok is false for a name that
// is not a drawn case's.
func DrawnNumber(name string) (n int, ok bool) {
	rest, found := strings.CutPrefix(name, drawnPrefix)
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0 && strconv.Itoa(n) == rest
}

// Titles of the drawn case number n in each language.
func Titles(n int) map[string]string {
	return map[string]string{
		"bg": fmt.Sprintf("случайни аргументи %d", n),
		"ru": fmt.Sprintf("случайные аргументы %d", n),
		"en": fmt.Sprintf("drawn arguments %d", n),
	}
}

// Cases draws spec's cases with seed and makes each a hidden case whose expected stdout and exit
// code are the reference's for lang. Two lists drawn with the same seed are the same.
func Cases(ctx context.Context, spec *Spec, seed uint64, ref Runner, lang string) ([]checker.Case, []Drawn, error) {
	if spec == nil {
		return nil, nil, nil
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var cases []checker.Case
	var drawn []Drawn
	for i := 1; i <= spec.count(); i++ {
		args := spec.Draw(r)
		name := drawnPrefix + strconv.Itoa(i)
		var text []byte
		if spec.Metrics {
			text = metricsScript(i, args)
		} else {
			stdout, code, err := ref.Output(ctx, lang, args)
			if err != nil {
				return nil, nil, fmt.Errorf("the reference solution with %s: %w", strings.Join(args, " "), err)
			}
			text = script(i, args, stdout, code, lang)
		}
		c := checker.Case{Name: name, Drawn: true, Titles: Titles(i), Script: text, Source: "drawn:" + name}
		cases = append(cases, c)
		drawn = append(drawn, Drawn{Name: name, Args: args})
	}
	return cases, drawn, nil
}

// script writes the case as a testscript.
func script(n int, args []string, stdout string, code int, lang string) []byte {
	var b strings.Builder
	line := header(&b, n, args)
	if code != 0 {
		fmt.Fprintf(&b, "! %s\nstatus %d\n", line, code)
	} else {
		b.WriteString(line + "\n")
	}
	b.WriteString("expect want\n")
	fmt.Fprintf(&b, "-- want.%s --\n%s", lang, stdout)
	if stdout != "" && !strings.HasSuffix(stdout, "\n") {
		// txtar ends every file with a newline: a transcript without one cannot be told apart.
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// header writes the case's titles into b and returns its run line.
func header(b *strings.Builder, n int, args []string) string {
	t := Titles(n)
	for _, l := range []string{"bg", "ru", "en"} {
		fmt.Fprintf(b, "# %s: %s\n", l, t[l])
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = quote(a)
	}
	return strings.TrimSpace("run " + strings.Join(quoted, " "))
}

// metricsScript writes a scenario case: the run, then its figures against their limits.
func metricsScript(n int, args []string) []byte {
	var b strings.Builder
	line := header(&b, n, args)
	b.WriteString(line + "\nmetrics\n")
	return []byte(b.String())
}

// quote writes an argument as testscript reads it: as it is when it is a plain word, else between
// single quotes, a quote doubled.
func quote(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n'\"#$\\{}") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", "''") + "'"
}
