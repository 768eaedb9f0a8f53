// After Go's own syscall.rawVforkSyscall (src/syscall/asm_linux_amd64.s).

#include "textflag.h"

// func cloneVfork(flags, secret uintptr) (pid, errno uintptr)
//
// clone(flags, 0, 0, 0, 0, secret): the child shares the caller's memory and stack (CLONE_VM) and
// the caller waits until the child execs or exits (CLONE_VFORK). The return address is kept in a
// register across the system call, so that the child, which returns first and then calls on the
// same stack, cannot change where the parent returns to.
TEXT ·cloneVfork(SB),NOSPLIT|NOFRAME,$0-32
	MOVQ	flags+0(FP), DI
	MOVQ	$0, SI
	MOVQ	$0, DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	secret+8(FP), R9
	MOVQ	$56, AX	// SYS_clone
	POPQ	R12	// the return address
	SYSCALL
	PUSHQ	R12
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, pid+16(FP)
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	AX, pid+16(FP)
	MOVQ	$0, errno+24(FP)
	RET
