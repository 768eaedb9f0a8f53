package grade

import (
	"strings"
	"unicode"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/workbook-course/workbook/checker"
)

// How a student's content language was decided (Student.LangFrom).
const (
	LangFromForced   = "forced"   // the instructor gave it for the whole class (Job.Lang)
	LangFromOutput   = "output"   // the program's output is closer to that language's transcripts
	LangFromProgram  = "program"  // the words of the program (its strings and comments) are that language's
	LangFromFallback = "fallback" // nothing told: the instructor's content language
)

// langGuesser tells the content language of a student's program by the words it uses: Cyrillic
// words that only one language's starter and reference solution use (in the program's text), and
// words that only one language's expected transcripts use (in what the program printed). Letters
// alone (ъ, ѝ against ы, э, ё) decide only when the words say nothing.
type langGuesser struct {
	code map[string]map[string]bool // lang → words only that language's starter and solution use
	out  map[string]map[string]bool // lang → words only that language's transcripts use
}

func newLangGuesser(starters, solutions []Source, cases []checker.Case) *langGuesser {
	code := map[string][]string{}
	for _, s := range append(append([]Source{}, starters...), solutions...) {
		for _, data := range s.Files {
			code[s.Lang] = append(code[s.Lang], cyrillicWords(string(data))...)
		}
	}
	out := map[string][]string{}
	for _, c := range cases {
		for _, f := range txtar.Parse(c.Script).Files {
			dot := strings.LastIndexByte(f.Name, '.')
			if dot < 0 {
				continue
			}
			lang := f.Name[dot+1:]
			if lang == "ru" || lang == "bg" {
				out[lang] = append(out[lang], cyrillicWords(string(f.Data))...)
			}
		}
	}
	return &langGuesser{code: exclusiveWords(code), out: exclusiveWords(out)}
}

// exclusiveWords keeps, for each language, the words no other language uses.
func exclusiveWords(words map[string][]string) map[string]map[string]bool {
	count := map[string]int{}
	sets := map[string]map[string]bool{}
	for lang, ws := range words {
		sets[lang] = map[string]bool{}
		for _, w := range ws {
			if !sets[lang][w] {
				sets[lang][w] = true
				count[w]++
			}
		}
	}
	for _, set := range sets {
		for w := range set {
			if count[w] > 1 {
				delete(set, w)
			}
		}
	}
	return sets
}

// cyrillicWords returns the words of two Cyrillic letters or more in s, in lower case.
func cyrillicWords(s string) []string {
	var out []string
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.Is(unicode.Cyrillic, r) })
	for _, w := range f {
		if len([]rune(w)) >= 2 {
			out = append(out, w)
		}
	}
	return out
}

// vote counts the words of text found in each language's set and returns the language with clearly
// more (at least two words, and more than any other), or "".
func vote(sets map[string]map[string]bool, text string) string {
	n := map[string]int{}
	for _, w := range cyrillicWords(text) {
		for lang, set := range sets {
			if set[w] {
				n[lang]++
			}
		}
	}
	best, bestN, second := "", 0, 0
	for _, lang := range []string{"bg", "ru"} {
		switch {
		case n[lang] > bestN:
			best, second, bestN = lang, bestN, n[lang]
		case n[lang] > second:
			second = n[lang]
		}
	}
	if bestN < 2 || bestN == second {
		return ""
	}
	return best
}

// fromProgram is the language the program's own words say, "" when they do not.
func (l *langGuesser) fromProgram(src Source) string {
	var all strings.Builder
	for _, data := range src.Files {
		all.Write(data)
		all.WriteByte('\n')
	}
	if lang := vote(l.code, all.String()); lang != "" {
		return lang
	}
	return DetectLang(src)
}

// fromOutput is the language of the transcripts the program's output (on every case it ran) is
// closer to, "" when the output does not tell (a program that prints nothing, or crashes).
func (l *langGuesser) fromOutput(results []checker.CaseResult) string {
	var all strings.Builder
	for _, c := range results {
		all.WriteString(c.Got)
		all.WriteByte('\n')
	}
	return vote(l.out, all.String())
}
