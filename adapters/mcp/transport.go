package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one input line. A longer line is discarded as it
// streams in (never held in memory whole), reported once, and the
// connection keeps serving the lines after it.
const MaxLineBytes = 16 << 20

// readChunk is the read buffer size; lines are assembled from chunks so a
// long line costs at most MaxLineBytes plus one chunk.
const readChunk = 64 << 10

// stdioConn is our mcp.Transport over a byte stream pair, and the one
// connection it makes. The SDK's own StdioTransport ends the session on
// the first malformed line, drops responses still in flight when input
// ends, answers cancelled requests and has no notion of a connection
// pinned to one protocol era; this one does the framing, era pinning and
// response bookkeeping itself and hands the SDK only well-formed
// messages. Reads are serialized by the SDK; writes may be concurrent.
type stdioConn struct {
	in      io.Reader
	out     io.Writer
	onError func(error)

	// incoming carries the served messages from readLoop to Read.
	incoming chan jsonrpc.Message
	// inputDone is closed when the input has ended (or failed) and every
	// message before that point has been handed to Read.
	inputDone chan struct{}
	// drained is closed when Read is asked for a message after inputDone:
	// the SDK has taken every answer to this server's own requests in, so
	// those still unanswered never will be.
	drained   chan struct{}
	drainOnce sync.Once
	closed    chan struct{}
	closeOnce sync.Once

	mu sync.Mutex
	// inflight holds the requests handed to the SDK that have not been
	// answered; the value says whether end of input waits for the answer.
	// It does for every request but subscriptions/listen, which only ends
	// with the connection: the SDK writes nothing once it has seen end of
	// input, so end of input is held back until those answers are out.
	inflight map[jsonrpc.ID]bool
	// awaited counts the true entries of inflight.
	awaited int
	// cancelled marks in-flight requests the client cancelled: their
	// responses are dropped, as the protocol asks.
	cancelled map[jsonrpc.ID]bool
	// settled is closed (and replaced) whenever awaited shrinks.
	settled chan struct{}
	// calls are the ids of the requests this server sent the client (its
	// roots/list) that it has not answered; only answers to them reach
	// the SDK.
	calls map[jsonrpc.ID]bool

	writeMu   sync.Mutex
	writeFail error
}

// newStdioConn is a connection that reads in and writes out once the SDK
// connects it, reporting to onError.
func newStdioConn(in io.Reader, out io.Writer, onError func(error)) *stdioConn {
	return &stdioConn{
		in: in, out: out, onError: onError,
		incoming:  make(chan jsonrpc.Message),
		inputDone: make(chan struct{}),
		drained:   make(chan struct{}),
		closed:    make(chan struct{}),
		inflight:  map[jsonrpc.ID]bool{},
		cancelled: map[jsonrpc.ID]bool{},
		settled:   make(chan struct{}),
		calls:     map[jsonrpc.ID]bool{},
	}
}

// Connect implements sdk.Transport: the connection is c itself, and it
// starts reading. It is called once.
func (c *stdioConn) Connect(context.Context) (sdk.Connection, error) {
	go c.readLoop(c.in)
	return c, nil
}

// SessionID implements sdk.Connection; stdio has no sessions.
func (c *stdioConn) SessionID() string { return "" }

// Read implements sdk.Connection. At end of input it returns io.EOF only
// once every request already read has been answered.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.inputDone:
		c.drainOnce.Do(func() { close(c.drained) })
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for {
		c.mu.Lock()
		n, settled := c.awaited, c.settled
		c.mu.Unlock()
		if n == 0 {
			return nil, io.EOF
		}
		select {
		case <-settled:
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write implements sdk.Connection: one JSON message per line, in a single
// write. A response to a cancelled request is swallowed.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		// Whatever happens to the write, the request is answered as far as
		// end of input is concerned.
		defer c.settle(resp.ID)
		if c.isCancelled(resp.ID) {
			return nil
		}
	}
	if call, ok := msg.(*jsonrpc.Request); ok && call.IsCall() {
		c.mu.Lock()
		c.calls[call.ID] = true
		c.mu.Unlock()
	}
	data, err := encodeFrame(msg)
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC message: %w", err)
	}

	c.writeMu.Lock()
	err = c.writeFail
	if err == nil {
		if _, werr := c.out.Write(data); werr != nil {
			err = fmt.Errorf("writing output: %w", werr)
			c.writeFail = err
			c.onError(err)
		}
	}
	c.writeMu.Unlock()
	return err
}

// encodeFrame is msg as one line. A successful response carries a result
// the SDK has already encoded, compact and valid; jsonrpc.EncodeMessage
// would scan and copy it once more as a json.RawMessage inside the
// envelope, which for the 31 KB tools/list answer was half of its CPU
// (docs/performance.md). So the envelope of such a response is written
// here, byte for byte what EncodeMessage writes (TestEncodeFrame,
// FuzzEncodeFrame); every other message goes through the SDK's encoder.
func encodeFrame(msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) == 0 || !resp.ID.IsValid() {
		data, err := jsonrpc.EncodeMessage(msg)
		return append(data, '\n'), err
	}
	var id bytes.Buffer
	enc := json.NewEncoder(&id)
	enc.SetEscapeHTML(false) // as the SDK's encoder
	if err := enc.Encode(resp.ID.Raw()); err != nil {
		return nil, err
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	data := make([]byte, 0, len(head)+id.Len()+len(mid)+len(resp.Result)+2)
	data = append(data, head...)
	data = append(data, bytes.TrimRight(id.Bytes(), "\n")...)
	data = append(data, mid...)
	data = append(data, resp.Result...)
	return append(data, '}', '\n'), nil
}

// Close implements sdk.Connection. It unblocks Read at once: it reports
// end of input without waiting for the requests in flight, which makes
// the SDK cancel them, and whatever they answer is never written. The
// input stream itself is left to its owner (a blocked read of stdin
// cannot be interrupted portably, and the process is about to end
// anyway).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// track records a request handed to the SDK as owing a response, which
// end of input waits for when await is set. A duplicate of an id still in
// flight is not recorded: the SDK drops it without an answer.
func (c *stdioConn) track(id jsonrpc.ID, await bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.inflight[id]; dup {
		return
	}
	c.inflight[id] = await
	if await {
		c.awaited++
	}
}

// cancel marks an in-flight request so its response is dropped.
func (c *stdioConn) cancel(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.inflight[id]; ok {
		c.cancelled[id] = true
	}
}

func (c *stdioConn) isCancelled(id jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancelled[id]
}

// settle records that the request id has been answered (or its answer
// dropped).
func (c *stdioConn) settle(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	await, ok := c.inflight[id]
	if !ok {
		return
	}
	delete(c.inflight, id)
	delete(c.cancelled, id)
	if await {
		c.awaited--
		close(c.settled)
		c.settled = make(chan struct{})
	}
}

// readLoop splits the input into lines, pins each message to its era and hands it
// to Read, in arrival order. It ends at end of input, on a read error or
// when the connection closes.
func (c *stdioConn) readLoop(in io.Reader) {
	defer close(c.inputDone)
	var pin eraPin
	br := bufio.NewReaderSize(in, readChunk)
	var line []byte
	overlong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == nil && len(line) == 0 && !overlong {
			// The whole line is in the read buffer: no copy needed, as
			// dispatch is done with it before the next read.
			if !c.dispatch(&pin, trimTerminator(chunk)) {
				return
			}
			continue
		}
		if !overlong {
			if len(line)+len(chunk) > MaxLineBytes+1 { // +1: the terminator
				overlong = true
				line = nil
				c.onError(fmt.Errorf("discarded an input line longer than %d bytes", MaxLineBytes))
			} else {
				line = appendChunk(line, chunk)
			}
		}
		switch {
		case err == nil:
			if !overlong && !c.dispatch(&pin, trimTerminator(line)) {
				return
			}
			overlong = false
			if cap(line) > readChunk {
				line = nil // do not keep a large buffer for the next line
			} else {
				line = line[:0]
			}
		case errors.Is(err, bufio.ErrBufferFull):
			// The line continues in the next chunk.
		case errors.Is(err, io.EOF):
			// A final line without its newline still ends at end of input:
			// a client that wrote one request and closed gets its answer.
			if !overlong && len(line) > 0 {
				c.dispatch(&pin, trimTerminator(line))
			}
			return
		default:
			c.onError(fmt.Errorf("reading input: %w", err))
			return
		}
	}
}

// appendChunk appends chunk to line, doubling the capacity when it runs
// out (append grows large slices by only a quarter, which would allocate
// several times the bound while a long line streams in).
func appendChunk(line, chunk []byte) []byte {
	if need := len(line) + len(chunk); need > cap(line) {
		grown := make([]byte, len(line), min(max(2*cap(line), need, readChunk), MaxLineBytes+1))
		copy(grown, line)
		line = grown
	}
	return append(line, chunk...)
}

// trimTerminator removes the newline (a final line may have none) and one
// carriage return before it.
func trimTerminator(line []byte) []byte {
	return bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
}

// dispatch handles one complete line. It returns false when the
// connection closed while handing a message over.
func (c *stdioConn) dispatch(pin *eraPin, line []byte) bool {
	f := parseFrame(line)
	switch f.kind {
	case frameNotJSON:
		// A blank line (a keep-alive newline) is nothing; anything else
		// that is not JSON is reported as JSON that is not JSON-RPC is.
		if len(bytes.TrimSpace(line)) > 0 {
			c.onError(errors.New("ignored a line that is not a JSON-RPC 2.0 message: it is not JSON"))
		}
		return true
	case frameInvalid:
		c.onError(fmt.Errorf("ignored a line that is not a JSON-RPC 2.0 message: %s", f.problem))
		return true
	case frameResponse:
		// The answer to a request of this server's goes to the SDK. Any
		// other that arrives before the era is chosen is reported, as the
		// reference does; later ones are ignored.
		if msg, ok := c.answer(f.id, line); ok {
			return c.hand(msg)
		}
		if pin.phase == phaseOpening || pin.phase == phaseProbing {
			c.onError(errors.New("discarded a JSON-RPC response that arrived before the protocol era was chosen"))
		}
		return true
	}

	d := pin.judge(f)
	if d.diagnostic != nil {
		c.onError(d.diagnostic)
	}
	switch {
	case d.drop:
		return true
	case d.verdict != nil:
		// A refusal is answered here: the SDK would check and decode the
		// request against its own method table first and answer several
		// refusals with codes of its own.
		_ = c.Write(context.Background(), &jsonrpc.Response{ID: f.id, Error: d.verdict})
		return true
	}
	msg := forSDK(f, d)
	if f.kind == frameRequest {
		// A listen request parks until the connection closes; end of input
		// must not wait for it.
		c.track(f.id, msg.Method != methodListen)
	}
	if f.kind == frameNotification && f.method == methodCancelled {
		if id, ok := cancelledID(f.params); ok {
			c.cancel(id)
		}
	}
	return c.hand(msg)
}

// hand gives msg to Read; false when the connection closed meanwhile.
func (c *stdioConn) hand(msg jsonrpc.Message) bool {
	select {
	case c.incoming <- msg:
		return true
	case <-c.closed:
		return false
	}
}

// answer is the response in line when it answers a request this server
// sent and has not had answered.
func (c *stdioConn) answer(id jsonrpc.ID, line []byte) (jsonrpc.Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.calls[id] {
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, false
	}
	delete(c.calls, id)
	return msg, true
}

// forSDK is the message the SDK is given for a request or notification
// the era pin served: its params as the pin left them, which is also how
// the middleware learns the era (eraOf). Both transports deliver what it
// builds.
func forSDK(f frame, d decision) *jsonrpc.Request {
	return &jsonrpc.Request{ID: f.id, Method: f.method, Params: d.params}
}

// cancelledID extracts the request id a cancellation names.
func cancelledID(params map[string]json.RawMessage) (jsonrpc.ID, bool) {
	raw, ok := params["requestId"]
	if !ok {
		return jsonrpc.ID{}, false
	}
	id, err := parseID(raw)
	return id, err == nil
}
