//go:build !unix

package app_test

import "errors"

var errNoSpecialFiles = errors.New("no special files on this system")

func hostileMksock(string) error { return errNoSpecialFiles }

func hostileMknull(string) error { return errNoSpecialFiles }
