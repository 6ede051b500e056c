//go:build unix

package main

import "syscall"

// haveFIFOs says whether this system has FIFOs in its file tree.
const haveFIFOs = true

func makeFIFO(p string) error { return syscall.Mkfifo(p, 0o644) }
