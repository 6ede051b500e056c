//go:build !unix

package fifotest

import "errors"

const supported = false

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
