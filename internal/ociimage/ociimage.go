// Package ociimage builds the container image of workbook without a container engine or a registry
// (docs/grading.md, "A container image"), with go-containerregistry, the library ko builds on. The
// image is the one the Dockerfile describes, layer for layer:
//
//   - the Go toolchain of this machine (GOROOT, of the version go.mod names) at /usr/local/go: every
//     program of it is statically linked, so the image needs no C library;
//   - workbook, built by that toolchain as the Dockerfile's build stage builds it (BuildEnv,
//     BuildArgs), at /usr/local/bin/workbook;
//   - a statically linked shell at /bin/sh (busybox: the recipes' commands are shell commands),
//     /etc/passwd and /etc/group naming the user workbook (uid and gid 10001), its home
//     /home/workbook and /tmp with the sticky bit;
//
// and a config that runs as USER 10001:10001 in the home with Env (PATH, GOTOOLCHAIN=local).
//
//	img, err := ociimage.Build(ociimage.Options{Repo: "."})
//	digest, err := ociimage.WriteLayout("/tmp/image", img) // an OCI image layout
//
// The layers are streamed: GOROOT is read once, compressed once and written once, into the layout
// (which `podman load`, `skopeo copy oci:DIR`, `crane push DIR` and, as a tar of the folder,
// `docker load` take). Every file has the same time and owner in every build, so the same toolchain,
// shell and workbook give the same digest. Unpack lays an image's file system out in a folder
// (mutate.Extract), for the test that runs the documented recipes inside it.
package ociimage

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/stream"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"golang.org/x/mod/modfile"
)

// The image's paths and user, which the Dockerfile's final stage must give too (the test of this
// package reads the Dockerfile and compares).
const (
	GOROOT   = "/usr/local/go"
	Workbook = "/usr/local/bin/workbook"
	Shell    = "/bin/sh"
	UID      = 10001
	Home     = "/home/workbook"
	// Passwd and Group are the image's /etc/passwd and /etc/group: root and the user workbook.
	Passwd = "root:x:0:0:root:/root:/sbin/nologin\nworkbook:x:10001:10001:workbook:/home/workbook:/bin/sh\n"
	Group  = "root:x:0:\nworkbook:x:10001:\n"
)

var (
	// Env is the config's environment: workbook and go on PATH, and the image's own toolchain for the
	// students' programs (never one downloaded at run time).
	Env = []string{"PATH=/usr/local/bin:/usr/local/go/bin:/usr/bin:/bin", "GOTOOLCHAIN=local"}
	// BuildEnv and BuildArgs are the build of workbook: go build BuildArgs... -o OUT ./cmd/workbook.
	BuildEnv  = []string{"CGO_ENABLED=0"}
	BuildArgs = []string{"-trimpath"}
	// Cmd is the image's default command.
	Cmd = []string{"workbook", "help"}
)

// epoch is every file's time in the image: the same files give the same layers.
var epoch = time.Unix(0, 0).UTC()

// Options says where the image's parts come from.
type Options struct {
	Repo   string // the module's folder, whose cmd/workbook is built; "." when empty
	GOROOT string // the toolchain; `go env GOROOT` when empty
	Shell  string // a statically linked shell, put at /bin/sh; /bin/busybox when empty
}

// Build checks the parts and returns the image, its layers not yet read: write it once (WriteLayout).
// The toolchain must be of go.mod's version and every program of it, the shell and workbook
// statically linked.
func Build(o Options) (v1.Image, error) {
	if o.Repo == "" {
		o.Repo = "."
	}
	if o.Shell == "" {
		o.Shell = "/bin/busybox"
	}
	if o.GOROOT == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil, fmt.Errorf("go env GOROOT: %w", err)
		}
		o.GOROOT = strings.TrimSpace(string(out))
	}
	if err := checkToolchain(o.GOROOT, filepath.Join(o.Repo, "go.mod")); err != nil {
		return nil, err
	}
	if err := checkStatic(o.Shell); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "ociimage-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "workbook")
	if err := buildWorkbook(o.GOROOT, o.Repo, bin); err != nil {
		return nil, err
	}
	// The layers read their files when written: the small ones are held in memory now, since the
	// temporary folder goes when Build returns.
	wb, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	sh, err := os.ReadFile(o.Shell)
	if err != nil {
		return nil, err
	}
	cfg := &v1.ConfigFile{
		Architecture: runtime.GOARCH,
		OS:           "linux",
		Created:      v1.Time{Time: epoch},
		RootFS:       v1.RootFS{Type: "layers"},
		Config: v1.Config{
			Env:        Env,
			Cmd:        Cmd,
			User:       fmt.Sprintf("%d:%d", UID, UID),
			WorkingDir: Home,
		},
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		return nil, err
	}
	add := func(by string, fill func(*tar.Writer) error) mutate.Addendum {
		return mutate.Addendum{Layer: layer(fill), History: v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "ociimage: " + by}}
	}
	return mutate.Append(img,
		add("the Go toolchain at "+GOROOT, func(w *tar.Writer) error { return addTree(w, o.GOROOT, GOROOT) }),
		add("workbook at "+Workbook, func(w *tar.Writer) error {
			return addFiles(w, []file{{name: Workbook, mode: 0o755, data: wb}})
		}),
		add("the shell, the user workbook, its home and /tmp", func(w *tar.Writer) error { return addFiles(w, system(sh)) }),
	)
}

// WriteLayout writes the image as an OCI image layout in dir (made, or added to) and returns its
// digest.
func WriteLayout(dir string, img v1.Image) (v1.Hash, error) {
	p, err := layout.FromPath(dir)
	if err != nil {
		if p, err = layout.Write(dir, empty.Index); err != nil {
			return v1.Hash{}, err
		}
	}
	if err := p.AppendImage(img); err != nil {
		return v1.Hash{}, err
	}
	return img.Digest()
}

// ReadLayout is the image of the layout in dir (the last one written there).
func ReadLayout(dir string) (v1.Image, error) {
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return nil, err
	}
	m, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	if len(m.Manifests) == 0 {
		return nil, fmt.Errorf("%s holds no image", dir)
	}
	return idx.Image(m.Manifests[len(m.Manifests)-1].Digest)
}

// layer is a layer whose tar fill writes, compressed as it is written out.
func layer(fill func(*tar.Writer) error) v1.Layer {
	r, w := io.Pipe()
	go func() {
		tw := tar.NewWriter(w)
		err := fill(tw)
		if err == nil {
			err = tw.Close()
		}
		w.CloseWithError(err)
	}()
	return stream.NewLayer(r, stream.WithMediaType(types.OCILayer), stream.WithCompressionLevel(gzip.BestSpeed))
}

// file is one entry of a layer: a folder (dir), a file (data) or a symbolic link (link).
type file struct {
	name string
	mode fs.FileMode
	dir  bool
	link string
	uid  int
	data []byte
}

// system is the layer of the shell, the user and the folders every program expects.
func system(shell []byte) []file {
	return []file{
		{name: "/bin", dir: true, mode: 0o755},
		{name: Shell, mode: 0o755, data: shell},
		{name: "/etc", dir: true, mode: 0o755},
		{name: "/etc/passwd", mode: 0o644, data: []byte(Passwd)},
		{name: "/etc/group", mode: 0o644, data: []byte(Group)},
		{name: "/home", dir: true, mode: 0o755},
		{name: Home, dir: true, mode: 0o755, uid: UID},
		{name: "/root", dir: true, mode: 0o700},
		{name: "/tmp", dir: true, mode: 0o777 | fs.ModeSticky},
	}
}

// addFiles writes the entries, each folder above them first.
func addFiles(w *tar.Writer, files []file) error {
	seen := map[string]bool{}
	for _, f := range files {
		var parents []string
		for d := path.Dir(f.name); d != "/" && !seen[d]; d = path.Dir(d) {
			parents = append([]string{d}, parents...)
		}
		for _, d := range parents {
			seen[d] = true
			if err := w.WriteHeader(header(d, 0o755|fs.ModeDir, 0, 0, "")); err != nil {
				return err
			}
		}
		mode := f.mode
		if f.dir {
			mode |= fs.ModeDir
			seen[f.name] = true
		}
		if f.link != "" {
			mode |= fs.ModeSymlink
		}
		if err := w.WriteHeader(header(f.name, mode, int64(len(f.data)), f.uid, f.link)); err != nil {
			return err
		}
		if _, err := w.Write(f.data); err != nil {
			return err
		}
	}
	return nil
}

// addTree writes the folder src as dst, owned by root: folders, regular files and symbolic links
// (the toolchain has nothing else).
func addTree(w *tar.Writer, src, dst string) error {
	if err := addFiles(w, []file{{name: dst, dir: true, mode: 0o755}}); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == src {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		name := path.Join(dst, filepath.ToSlash(rel))
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			return w.WriteHeader(header(name, mode.Perm()|fs.ModeDir, 0, 0, ""))
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return w.WriteHeader(header(name, 0o777|fs.ModeSymlink, 0, 0, target))
		case mode.IsRegular():
			// Read or write bits for all, as the owner has them: the toolchain of an ordinary user.
			perm := mode.Perm() | 0o444
			if mode&0o100 != 0 {
				perm |= 0o111
			}
			if err := w.WriteHeader(header(name, perm, info.Size(), 0, "")); err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			n, err := io.Copy(w, f)
			if err == nil && n != info.Size() {
				err = fmt.Errorf("%s changed while it was read", p)
			}
			return err
		default:
			return fmt.Errorf("%s: %v is neither a file, a folder nor a symbolic link", p, mode.Type())
		}
	})
}

// header is the tar header of one entry, at the fixed time.
func header(name string, mode fs.FileMode, size int64, uid int, link string) *tar.Header {
	h := &tar.Header{
		Name:    strings.TrimPrefix(name, "/"),
		Mode:    int64(mode.Perm()),
		Size:    size,
		Uid:     uid,
		Gid:     uid,
		ModTime: epoch,
		Format:  tar.FormatPAX,
	}
	if mode&fs.ModeSticky != 0 {
		h.Mode |= 0o1000
	}
	switch {
	case mode.IsDir():
		h.Typeflag, h.Name, h.Size = tar.TypeDir, h.Name+"/", 0
	case mode&fs.ModeSymlink != 0:
		h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, link, 0
	default:
		h.Typeflag = tar.TypeReg
	}
	return h
}

// checkToolchain checks that GOROOT is the toolchain of go.mod's version (its major and minor: the
// Dockerfile's golang:MAJOR.MINOR) and that its programs run without a C library.
func checkToolchain(goroot, gomod string) error {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	mod, err := modfile.ParseLax(gomod, data, nil)
	if err != nil {
		return err
	}
	if mod.Go == nil {
		return fmt.Errorf("%s names no go version", gomod)
	}
	version, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return fmt.Errorf("%s is no Go toolchain: %w", goroot, err)
	}
	have, _, _ := strings.Cut(strings.TrimPrefix(string(version), "go"), "\n")
	if minor(have) != minor(mod.Go.Version) {
		return fmt.Errorf("the toolchain in %s is go%s; %s names go %s", goroot, have, gomod, mod.Go.Version)
	}
	progs, err := filepath.Glob(filepath.Join(goroot, "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH, "*"))
	if err != nil {
		return err
	}
	progs = append(progs, filepath.Join(goroot, "bin", "go"), filepath.Join(goroot, "bin", "gofmt"))
	for _, p := range progs {
		if err := checkStatic(p); err != nil {
			return err
		}
	}
	return nil
}

// minor is a Go version's major and minor: 1.26 of 1.26.8 or 1.26.0.
func minor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// checkStatic checks that the program at p needs no dynamic loader (no PT_INTERP): the image has no
// C library.
func checkStatic(p string) error {
	f, err := elf.Open(p)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is dynamically linked: the image has no C library to run it", p)
		}
	}
	return nil
}

// buildWorkbook builds cmd/workbook with the toolchain in goroot, as the Dockerfile does.
func buildWorkbook(goroot, repo, out string) error {
	args := append([]string{"build"}, BuildArgs...)
	args = append(args, "-o", out, "./cmd/workbook")
	cmd := exec.Command(filepath.Join(goroot, "bin", "go"), args...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), append([]string{"GOTOOLCHAIN=local", "GOROOT=" + goroot}, BuildEnv...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return checkStatic(out)
}

// Unpack writes the image's file system (its layers flattened by mutate.Extract) into dir, with the
// modes and owners the image gives (owners only where the caller may set them, as root).
func Unpack(img v1.Image, dir string) error {
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	chown := os.Geteuid() == 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("the image's %q lies outside its root", h.Name)
		}
		mode := fs.FileMode(h.Mode).Perm()
		if h.Mode&0o1000 != 0 {
			mode |= fs.ModeSticky
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := root.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := root.Symlink(h.Linkname, name); err != nil {
				return err
			}
			if chown {
				if err := root.Lchown(name, h.Uid, h.Gid); err != nil {
					return err
				}
			}
			continue
		case tar.TypeReg:
			f, err := root.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("the image's %q is of a kind Unpack does not write (%c)", h.Name, h.Typeflag)
		}
		if chown {
			if err := root.Lchown(name, h.Uid, h.Gid); err != nil {
				return err
			}
		}
		if err := root.Chmod(name, mode); err != nil {
			return err
		}
	}
}
