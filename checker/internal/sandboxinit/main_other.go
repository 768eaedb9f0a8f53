//go:build !linux

package main

import (
	"fmt"
	"os"
)

// The sandbox init exists only on Linux; elsewhere the checker runs programs directly.
func main() {
	fmt.Fprintln(os.Stderr, "sandboxinit: Linux only")
	os.Exit(2)
}
