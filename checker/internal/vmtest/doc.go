// Package vmtest holds TestCgroupsInVM, which boots a Linux kernel under qemu and runs the checker's
// cgroup v2 tests and the hostile programs that a run-wide limit stops inside it, in the scenarios
// checker/internal/vminit sets up. It is a package of its own so that the machine's minutes count
// against a test timeout of their own. The test runs when WORKBOOK_VM_KERNEL names a kernel image
// (.ci/run sets it), and is skipped otherwise.
package vmtest
