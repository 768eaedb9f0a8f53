package render

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestCodeLinesHTMLAsChroma checks the Go highlighter against what chroma gave for a program that
// holds every kind of token lessons use (testdata/chroma.txtar, recorded from chroma v2.20.0, which
// workbook used before). It replaces TestChromaRegistries, which checked the patched copy of chroma.
func TestCodeLinesHTMLAsChroma(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/chroma.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	want := strings.Split(strings.TrimSuffix(files["html"], "\n"), "\n")
	got := CodeLinesHTML("go", files["code.go"], "", nil)
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("line %d:\ngot  %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

func TestCodeLinesHTML(t *testing.T) {
	field := func() string { return `<input name="answer">` }
	for _, tt := range []struct {
		lang, code, hole string
		want             []string
	}{
		{"text", "a < b\n\nc", "", []string{"a &lt; b", "", "c"}},
		{"output", "x := 1", "", []string{"x := 1"}},
		{"go", "x := 1 // one\n", "", []string{`<span class="nx">x</span> <span class="o">:=</span> <span class="mi">1</span> <span class="c1">// one</span>`}},
		{"go", "fmt.Println(___)", "___", []string{`<span class="nx">fmt</span><span class="p">.</span><span class="nf">Println</span><span class="p">(</span><span class="nx"><input name="answer"></span><span class="p">)</span>`}},
		{"go", "s := \"<b>\" + `a\nb`", "", []string{"<span class=\"nx\">s</span> <span class=\"o\">:=</span> <span class=\"s\">&#34;&lt;b&gt;&#34;</span> <span class=\"o\">+</span> <span class=\"s\">`a</span>", "<span class=\"s\">b`</span>"}},
		// chroma read 0o17 as 0 and a name o17; app.js does too, and it is rare enough.
		{"go", "0o17", "", []string{`<span class="mo">0o17</span>`}},
		{"go", "x := 'a' @ 1", "", []string{`<span class="nx">x</span> <span class="o">:=</span> <span class="sc">&#39;a&#39;</span> <span class="err">@</span> <span class="mi">1</span>`}},
	} {
		var got []string
		for _, l := range CodeLinesHTML(tt.lang, tt.code, tt.hole, field) {
			got = append(got, string(l))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("CodeLinesHTML(%q, %q):\ngot  %q\nwant %q", tt.lang, tt.code, got, tt.want)
		}
	}
}

func TestCSS(t *testing.T) {
	css := string(CSS())
	for _, class := range []string{"k", "kc", "kd", "kn", "kt", "nb", "nf", "s", "sc", "m", "mi", "mf", "mh", "mo", "mb", "o", "c1", "cm", "cp", "err"} {
		if !strings.Contains(css, ".chroma ."+class+" ") && !strings.Contains(css, ".chroma ."+class+",") {
			t.Errorf("the stylesheet has no colour for class %s", class)
		}
	}
	if !strings.Contains(css, "prefers-color-scheme: dark") {
		t.Error("the stylesheet has no dark theme")
	}
}
