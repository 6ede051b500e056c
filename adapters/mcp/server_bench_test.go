package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/adapters/mcp"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// BenchmarkServeToolCall times tools/call round trips through the whole
// server in process (framing, the SDK, argument decoding, the tool, the
// structured answer's encoding) over pipes, on a generated corpus. The
// gap to app's BenchmarkCall is the protocol's share of a call.
func BenchmarkServeToolCall(b *testing.B) {
	for _, n := range []int{100, 1000} {
		root := b.TempDir()
		if _, _, err := corpusgen.WriteRepo(root, corpusgen.Config{N: n, Seed: 1, Broken: 0.01, Federated: 2}); err != nil {
			b.Fatal(err)
		}
		for _, call := range corpusgen.Workload(n) {
			b.Run(fmt.Sprintf("%s/N=%d", call.Tool, n), func(b *testing.B) {
				inR, inW := io.Pipe()
				outR, outW := io.Pipe()
				svc := app.New(filesystem.New(root, corpus.DefaultDir), app.Options{})
				srv := mcp.New(svc, mcp.Options{In: inR, Out: outW, OnError: func(err error) { b.Error(err) }})
				done := make(chan error, 1)
				go func() { done <- srv.Serve(context.Background()) }()
				out := bufio.NewReaderSize(outR, 1<<16)
				id := 0
				roundTrip := func(method string, params any) {
					id++
					line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
					if _, err := inW.Write(append(line, '\n')); err != nil {
						b.Fatal(err)
					}
					if _, err := out.ReadBytes('\n'); err != nil {
						b.Fatal(err)
					}
				}
				roundTrip("initialize", map[string]any{
					"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
					"clientInfo": map[string]any{"name": "bench", "version": "0"},
				})
				params := map[string]any{"name": call.Tool, "arguments": call.Args}
				roundTrip("tools/call", params) // warms the memo
				b.ReportAllocs()
				for b.Loop() {
					roundTrip("tools/call", params)
				}
				b.StopTimer()
				inW.Close()
				go io.Copy(io.Discard, outR)
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
