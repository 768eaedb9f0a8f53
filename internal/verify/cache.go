package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/workbook-course/workbook/checker"
	"github.com/workbook-course/workbook/internal/course"
)

// The verdicts of verify's costly steps are kept between runs, the way Go's test cache keeps test
// results: the analysis of one exercise (its solutions, starters and kept wrong programs against its
// cases; the mutants of its solutions against its cases) is stored under a key that hashes
// everything the result depends on, and a later run with the same key takes the result instead of
// building and running again. The key covers
//
//   - the bytes and paths of the exercise's files: every file of exercises/<name>/ and
//     solutions/<name>/ for the verdicts of the programs; the solutions, the cases, exercise.yaml
//     (with its generator) and the list of equivalent mutants for the mutation analysis;
//   - the Go toolchain's full version, GOOS and GOARCH, the sandbox level and the limits;
//   - the workbook code itself: the hash of the running executable (the CLI, or a test binary), so
//     that any change of the code invalidates every entry.
//
// Entries are kept only in a folder the checker trusts (checker.CacheDir: this user's alone, where
// the sandbox keeps learners' programs out), never in the repository, and an entry is read only when
// checker.TrustedFile accepts it and its checksum holds; anything else is ignored and computed
// again. A clean clone on a fresh machine (CI) has no cache and so analyses everything.

// NoCacheEnv is the environment variable that turns the cache off when set to anything but "" or
// "0": every exercise is analysed, and the fresh results are stored.
const NoCacheEnv = "WORKBOOK_NOCACHE"

// cacheMax is how many entries the cache keeps (a few KiB each); the least recently used go first.
const cacheMax = 512

// cacheMagic opens every entry; its version changes when the entry format does.
const cacheMagic = "workbook verify cache 2\n"

// Cache holds the results of earlier analyses. The zero Cache, or a nil one, keeps nothing.
type Cache struct {
	dir  string // the cache's folder; "" when there is none
	code string // the hash of the workbook code
	read bool   // whether get may return stored entries (false: compute everything, store the results)
}

// OpenCache returns the cache of verify's results in the checker's trusted cache folder. Where there
// is no such folder (the sandbox cannot keep learners' programs out of it) or the running executable
// cannot be read, the cache keeps nothing. With refresh (verify --no-cache, or WORKBOOK_NOCACHE=1)
// nothing stored is taken, and the fresh results replace the old ones.
func OpenCache(refresh bool) *Cache {
	if v := os.Getenv(NoCacheEnv); v != "" && v != "0" {
		refresh = true
	}
	code, err := codeHash()
	if err != nil {
		return &Cache{}
	}
	return &Cache{dir: checker.CacheDir("verify"), code: code, read: !refresh}
}

// OpenCacheFor is OpenCache with the workbook code named by code instead of the running executable's
// bytes. Tests pass SourceHash of the module: a test binary's bytes differ from clone to clone (it
// holds the clone's paths), while the source is the same in every clone of one commit, so a fresh
// clone of unchanged content finds the results a former clone stored.
func OpenCacheFor(refresh bool, code string) *Cache {
	if v := os.Getenv(NoCacheEnv); v != "" && v != "0" {
		refresh = true
	}
	if code == "" {
		return &Cache{}
	}
	return &Cache{dir: checker.CacheDir("verify"), code: "source " + code, read: !refresh}
}

// SourceHash hashes the code that decides an exercise's verdicts and measures, for a module whose
// root is root: go.mod, go.sum, and every file (Go source, embedded files, test data) in the folder
// of each package of the module that this package (verify) is built from, course and the checker
// among them, and their subfolders, with their paths, in the order of their paths. The learner's
// workspace (my/) and hidden folders are left out. A change elsewhere in the module (the grader, the
// browser, the commands) leaves it as it is, so the results stay in the cache; the list of packages
// comes from the go command (go list -deps), so a new dependency is in it the moment it is imported.
func SourceHash(root string) (string, error) {
	tops, err := sourceDirs(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	hashFile := func(rel string) error {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%d %s %d\n", len(rel), rel, len(data))
		h.Write(data)
		return nil
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := hashFile(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	for _, top := range tops {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(top)), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel != top && (rel == "my" || strings.HasPrefix(d.Name(), ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			return hashFile(rel)
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sourceDirs is the folders SourceHash hashes, relative to root with forward slashes, in order: the
// folder of each package of the module that verify is built from (go list -deps), but a folder
// whose parent is listed too, which is hashed with its parent.
func sourceDirs(root string) ([]string, error) {
	goBin, err := checker.GoTool()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "github.com/workbook-course/workbook/internal/verify")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
		}
		return nil, fmt.Errorf("go list: %w", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, d := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(abs, d)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		dirs = append(dirs, filepath.ToSlash(rel))
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("go list named no package of the module in %s", root)
	}
	sort.Strings(dirs)
	var tops []string
	for _, d := range dirs {
		if len(tops) > 0 && (tops[len(tops)-1] == "." || strings.HasPrefix(d, tops[len(tops)-1]+"/")) {
			continue
		}
		tops = append(tops, d)
	}
	return tops, nil
}

// Enabled reports whether the cache stores anything.
func (c *Cache) Enabled() bool { return c != nil && c.dir != "" && c.code != "" }

// Reads reports whether results are taken from the cache (false when it keeps nothing, or with
// --no-cache).
func (c *Cache) Reads() bool { return c.Enabled() && c.read }

// codeHash is the hash of the running executable's bytes: the workbook command, or the test binary.
var codeHash = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})

// toolchain is the full version of the go command that builds the programs ("go1.26.8"), or the
// version this binary was built with when there is no go command.
var toolchain = sync.OnceValue(func() string {
	if goBin, err := checker.GoTool(); err == nil {
		cmd := exec.Command(goBin, "env", "GOVERSION")
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		if out, err := cmd.Output(); err == nil {
			if v := strings.TrimSpace(string(out)); v != "" {
				return v
			}
		}
	}
	return runtime.Version()
})

// sandboxLevel names the protections runs get, as part of a key.
func sandboxLevel() string {
	iso := checker.SandboxIsolation()
	return iso.Level + " " + strings.Join(iso.Applied, ",")
}

// keyFile is one file a cached result depends on.
type keyFile struct {
	Name string
	Data []byte
}

// keyInput is everything a cached result depends on.
type keyInput struct {
	Kind      string // what was computed: "programs" or "mutants"
	Toolchain string // the go command's full version
	Target    string // GOOS/GOARCH
	Sandbox   string // the sandbox level runs get
	Code      string // the hash of the workbook code
	Limits    checker.Limits
	Files     []keyFile // sorted by name
}

// sum is the key of the input: a hash of every field, each one length-prefixed so that no two inputs
// share it.
func (k keyInput) sum() string {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	field([]byte(cacheMagic))
	field([]byte(k.Kind))
	field([]byte(k.Toolchain))
	field([]byte(k.Target))
	field([]byte(k.Sandbox))
	field([]byte(k.Code))
	field(fmt.Appendf(nil, "%d %d %d %d %d %d", k.Limits.BuildTime, k.Limits.RunTime, k.Limits.OutputBytes,
		k.Limits.CPUTime, k.Limits.Memory, k.Limits.Processes))
	files := append([]keyFile(nil), k.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	field(fmt.Appendf(nil, "%d", len(files)))
	for _, f := range files {
		field([]byte(f.Name))
		field(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// The kinds of results kept.
const (
	kindPrograms = "programs" // Exercises: the files and the programs' verdicts
	kindMutants  = "mutants"  // Mutate: the mutation analysis
)

// keyInputOf gathers what the result of kind for the exercise depends on.
func keyInputOf(e *course.Exercise, kind string, c *Cache, lim checker.Limits) (keyInput, error) {
	k := keyInput{Kind: kind, Toolchain: toolchain(), Target: runtime.GOOS + "/" + runtime.GOARCH,
		Sandbox: sandboxLevel(), Code: c.code, Limits: lim}
	var roots []string
	switch kind {
	case kindPrograms:
		roots = []string{e.Dir(), path.Join("solutions", e.Name)}
	case kindMutants:
		roots = []string{path.Join(e.Dir(), "exercise.yaml"), path.Join(e.Dir(), EquivalentFile),
			path.Join(e.Dir(), "cases"), path.Join("solutions", e.Name)}
	default:
		return k, fmt.Errorf("no such kind of result: %s", kind)
	}
	fsys := e.Course().FS()
	for _, root := range roots {
		err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && errors.Is(err, fs.ErrNotExist) {
					return nil // a missing list or folder is part of the input as its absence
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			k.Files = append(k.Files, keyFile{Name: p, Data: data})
			return nil
		})
		if err != nil {
			return k, err
		}
	}
	return k, nil
}

// entry is what the cache keeps for one key.
type entry struct {
	Key      string          `json:"key"`
	Exercise string          `json:"exercise,omitempty"`
	Problems []Problem       `json:"problems,omitempty"`
	Mutation *Mutation       `json:"mutation,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"` // what Store kept
}

// Load sets *v to the result Store kept for kind and files (file names and their bytes: everything
// the result depends on besides the workbook code, the toolchain, the target and the sandbox), and
// reports whether there was one. Numbers inside interface values come back as json.Number.
func (c *Cache) Load(kind string, files map[string][]byte, v any) bool {
	if !c.Reads() {
		return false
	}
	en := c.get(c.externalKey(kind, files))
	if en == nil || len(en.Data) == 0 {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(en.Data))
	dec.UseNumber()
	return dec.Decode(v) == nil
}

// Store keeps v (anything encoding/json writes) as the result for kind and files.
func (c *Cache) Store(kind string, files map[string][]byte, v any) {
	if !c.Enabled() {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.put(c.externalKey(kind, files), &entry{Data: data})
}

// externalKey is the key of a result kept by Store.
func (c *Cache) externalKey(kind string, files map[string][]byte) string {
	k := keyInput{Kind: "store:" + kind, Toolchain: toolchain(), Target: runtime.GOOS + "/" + runtime.GOARCH,
		Sandbox: sandboxLevel(), Code: c.code}
	for name, data := range files {
		k.Files = append(k.Files, keyFile{Name: name, Data: data})
	}
	return k.sum()
}

// get returns the entry stored under key, or nil: when there is none, when it is not a trusted file,
// or when it is damaged.
func (c *Cache) get(key string) *entry {
	if !c.Reads() || key == "" {
		return nil
	}
	p := filepath.Join(c.dir, key)
	en := readEntry(p, key)
	if en != nil {
		now := time.Now()
		os.Chtimes(p, now, now)
	}
	return en
}

// readEntry reads the entry at p stored under key; nil when it is not to be trusted.
func readEntry(p, key string) *entry {
	if !checker.TrustedFile(p) {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		return nil
	}
	rest, ok := bytes.CutPrefix(data, []byte(cacheMagic))
	if !ok {
		return nil
	}
	sum, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil
	}
	want := sha256.Sum256(body)
	if string(sum) != hex.EncodeToString(want[:]) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var en entry
	if dec.Decode(&en) != nil || en.Key != key {
		return nil
	}
	for i := range en.Problems {
		en.Problems[i].Args = plainArgs(en.Problems[i].Args)
	}
	return &en
}

// plainArgs gives a problem's values back the types they had: JSON numbers become ints (or
// float64s), as the messages' plural forms need.
func plainArgs(args []any) []any {
	for i, a := range args {
		args[i] = plainNumber(a)
	}
	return args
}

// plainNumber is v, or the int (else float64) of a JSON number.
func plainNumber(v any) any {
	n, ok := v.(json.Number)
	if !ok {
		return v
	}
	if i, err := n.Int64(); err == nil {
		return int(i)
	}
	if f, err := n.Float64(); err == nil {
		return f
	}
	return v
}

// put stores the entry under key (its Key is set), and trims the cache to cacheMax entries.
func (c *Cache) put(key string, en *entry) {
	if !c.Enabled() || key == "" {
		return
	}
	en.Key = key
	body, err := json.Marshal(en)
	if err != nil {
		return
	}
	sum := sha256.Sum256(body)
	tmp, err := os.CreateTemp(c.dir, ".new-")
	if err != nil {
		return
	}
	_, err = io.WriteString(tmp, cacheMagic+hex.EncodeToString(sum[:])+"\n")
	if err == nil {
		_, err = tmp.Write(body)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Chmod(tmp.Name(), 0o600) != nil || os.Rename(tmp.Name(), filepath.Join(c.dir, key)) != nil {
		os.Remove(tmp.Name())
		return
	}
	checker.TrimCache(c.dir, cacheMax)
}
