//go:build unix

package fifotest

import "syscall"

const supported = true

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
