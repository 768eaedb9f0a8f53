package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// workbook patch: the embedded styles are parsed at the first call of Get or Names, not at package
// initialisation (see WORKBOOK.md). Until then Registry holds only the fallback style and the
// styles registered so far. A style registered before that call is kept: it replaces the
// embedded style of the same name, as it would have had the embedded ones been parsed first.
var Registry = map[string]*chroma.Style{}

// Fallback style. Reassign to change the default fallback style.
var Fallback = Register(parse("swapoff.xml"))

var (
	// mu guards Registry's writes: Register's and load's.
	mu       sync.Mutex
	loadOnce sync.Once
)

// parse parses the embedded style in file.
func parse(file string) *chroma.Style {
	r, err := embedded.Open(file)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	style, err := chroma.NewXMLStyle(r)
	if err != nil {
		panic(err)
	}
	return style
}

// load adds the embedded styles to Registry, once, leaving the ones already there.
func load() {
	loadOnce.Do(func() {
		files, err := fs.ReadDir(embedded, ".")
		if err != nil {
			panic(err)
		}
		for _, file := range files {
			if file.IsDir() {
				continue
			}
			style := parse(file.Name())
			mu.Lock()
			if _, ok := Registry[style.Name]; !ok {
				Registry[style.Name] = style
			}
			mu.Unlock()
		}
	})
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	mu.Lock()
	defer mu.Unlock()
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	load()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	load()
	if style, ok := Registry[name]; ok {
		return style
	}
	return Fallback
}
