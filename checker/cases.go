package checker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// Case is one testscript case of an exercise.
type Case struct {
	Name    string            // the file name without .txtar
	Visible bool              // shown to the learner in the statement
	Drawn   bool              // drawn afresh for this check (see internal/gencase): its arguments may be shown
	Titles  map[string]string // the title in each language, from "# bg: …" comment lines
	Script  []byte            // the whole .txtar
	Source  string            // where it was read from, for messages
}

// Title returns the case's title in lang, else in English, else Bulgarian, else its name.
func (c Case) Title(lang string) string {
	for _, l := range []string{lang, "en", "bg", "ru"} {
		if t := c.Titles[l]; t != "" {
			return t
		}
	}
	return c.Name
}

// LoadCases reads an exercise's cases from dir in fsys: dir/visible/*.txtar are visible and
// dir/hidden/*.txtar are not. Cases come back visible first, each group in file-name order.
func LoadCases(fsys fs.FS, dir string) ([]Case, error) {
	var all []Case
	for _, group := range []struct {
		sub     string
		visible bool
	}{{"visible", true}, {"hidden", false}} {
		cs, err := LoadCaseDir(fsys, path.Join(dir, group.sub), group.visible)
		if err != nil {
			return nil, err
		}
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: no cases (expected visible/*.txtar and hidden/*.txtar)", dir)
	}
	return all, nil
}

// LoadCaseDir reads every *.txtar in dir of fsys as cases with the given visibility. A missing dir
// holds no cases.
func LoadCaseDir(fsys fs.FS, dir string, visible bool) ([]Case, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		if isNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var cases []Case
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txtar") {
			continue
		}
		p := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		c, err := ParseCase(p, data)
		if err != nil {
			return nil, err
		}
		c.Visible = visible
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}

// ParseCase reads one case from its .txtar text. The comment lines "# bg: …", "# ru: …", "# en: …"
// give its titles.
func ParseCase(name string, data []byte) (Case, error) {
	base := path.Base(name)
	c := Case{Name: strings.TrimSuffix(base, ".txtar"), Titles: map[string]string{}, Script: data, Source: name}
	ar := txtar.Parse(data)
	sc := bufio.NewScanner(bytes.NewReader(ar.Comment))
	runs := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "#"); ok {
			rest = strings.TrimSpace(rest)
			if lang, title, ok := strings.Cut(rest, ":"); ok && len(lang) == 2 && c.Titles[lang] == "" {
				c.Titles[lang] = strings.TrimSpace(title)
			}
			continue
		}
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "run" || (f[0] == "!" && len(f) > 1 && f[1] == "run")) {
			runs++
		}
	}
	if runs == 0 {
		return c, fmt.Errorf("%s: the case never runs the program (no 'run' line)", name)
	}
	return c, nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
