// After Go's own syscall.rawVforkSyscall (src/syscall/asm_linux_arm64.s).

#include "textflag.h"

// func cloneVfork(flags, secret uintptr) (pid, errno uintptr)
//
// clone(flags, 0, 0, 0, 0, secret): see vfork_amd64.s. The return address stays in the link
// register, which the child cannot change for the parent.
TEXT ·cloneVfork(SB),NOSPLIT,$0-32
	MOVD	flags+0(FP), R0
	MOVD	$0, R1
	MOVD	$0, R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	secret+8(FP), R5
	MOVD	$220, R8	// SYS_clone
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, pid+16(FP)
	NEG	R0, R0
	MOVD	R0, errno+24(FP)
	RET
ok:
	MOVD	R0, pid+16(FP)
	MOVD	ZR, errno+24(FP)
	RET
