package checker

// HasPackageMain reports whether dir holds a non-test Go file of package main, or one whose package
// clause does not parse (the compiler's to report, in its own words). A folder that cannot be read,
// one with no Go files and one of another package have no package main. The checker builds only a
// folder that has one; a command uses it to tell a program from a library before checking.
func HasPackageMain(dir string) bool { return findMain(dir) == nil }
