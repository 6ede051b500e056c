//go:build !unix

package mcphttp

import "errors"

// haveFIFOs says whether this system has FIFOs in its file tree.
const haveFIFOs = false

func makeFIFO(string) error { return errors.New("no FIFOs on this system") }

func unblockFIFO(string) {}
