// Command mkproxy lays out a module proxy folder serving the module at a git commit (internal/modproxy)
// and prints the version it serves. CI's install step runs it:
//
//	go run ./internal/modproxy/mkproxy [-rev HEAD] [-version VERSION] DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/workbook-course/workbook/internal/modproxy"
)

func main() {
	rev := flag.String("rev", "HEAD", "the git commit to publish")
	version := flag.String("version", "", "the version to serve it as (default: the commit's pseudo-version)")
	repo := flag.String("repo", ".", "the git work tree")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: mkproxy [-rev REV] [-version VERSION] [-repo DIR] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	m, err := modproxy.Write(flag.Arg(0), *repo, *rev, *version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkproxy:", err)
		os.Exit(1)
	}
	fmt.Println(m.Version)
}
