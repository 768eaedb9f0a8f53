// Command mkimage builds workbook's container image without a container engine (internal/ociimage)
// and writes it as an OCI image layout in DIR; it prints the image's digest and size. CI runs it:
//
//	go run ./internal/ociimage/mkimage [-repo DIR] [-goroot DIR] [-shell FILE] DIR
//
// Load or push the layout with `podman load -i DIR`, `skopeo copy oci:DIR docker://REF`,
// `crane push DIR REF`, or `tar -C DIR -c . | docker load` (docs/grading.md, "A container image").
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/workbook-course/workbook/internal/ociimage"
)

func main() {
	var o ociimage.Options
	flag.StringVar(&o.Repo, "repo", ".", "the module whose cmd/workbook the image holds")
	flag.StringVar(&o.GOROOT, "goroot", "", "the Go toolchain the image holds (default: go env GOROOT)")
	flag.StringVar(&o.Shell, "shell", "/bin/busybox", "a statically linked shell, the image's /bin/sh")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mkimage [-repo DIR] [-goroot DIR] [-shell FILE] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(o, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(o ociimage.Options, dir string) error {
	img, err := ociimage.Build(o)
	if err != nil {
		return err
	}
	digest, err := ociimage.WriteLayout(dir, img)
	if err != nil {
		return err
	}
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	var size int64
	for _, l := range layers {
		n, err := l.Size()
		if err != nil {
			return err
		}
		size += n
	}
	fmt.Printf("%s %s: %d layers, %.1f MB compressed\n", dir, digest, len(layers), float64(size)/1e6)
	return nil
}
