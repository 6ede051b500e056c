//go:build unix

package app_test

import "golang.org/x/sys/unix"

// hostileMksock makes a Unix socket entry at p (no listener behind it).
func hostileMksock(p string) error { return unix.Mknod(p, unix.S_IFSOCK|0o644, 0) }

// hostileMknull makes a character device at p, the null device's
// numbers on Linux; it needs CAP_MKNOD.
func hostileMknull(p string) error {
	return unix.Mknod(p, unix.S_IFCHR|0o644, int(unix.Mkdev(1, 3)))
}
