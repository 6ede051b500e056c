package app

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
	"github.com/adrkit/adrkit-go/domain/corpus"
	"github.com/adrkit/adrkit-go/domain/frontmatter"
	"github.com/adrkit/adrkit-go/ports"
)

// HookBudget bounds the time one hook event may take, well under the
// shortest timeout a host gives a hook command: the 10 seconds "adrkit
// init" writes into Codex's entries (agenthost's table; Claude Code's
// own is 600, GitHub Copilot's 30). Past it the hook gives up and says
// so; the agent's tool goes on without the context.
const HookBudget = 5 * time.Second

// HookSite is the repository a hook event is about, as the caller opened
// it for the event's directory.
type HookSite struct {
	// Reader reads the ADR directory; Heads the heads of the files an
	// edit names, for their @adr markers.
	Reader ports.CorpusReader
	Heads  ports.FileHeadReader
	// Store keeps what one run worked out for the next; nil keeps
	// nothing.
	Store ports.HookStore
	// Place names the corpus in what Store keeps: the build that
	// answers, the repository root and the ADR directory. "" keeps no
	// index and no answer (a corpus read from a git revision).
	Place string
	// Dir is the ADR directory as the context names it.
	Dir string
	// EditPaths makes the paths an event names the repository paths the
	// edit writes, and names those outside the repository
	// (workspace.EditPaths).
	EditPaths func(paths []string) (files, outside []string)
	// Budget is the time the answer may take once the site is open; 0
	// is HookBudget.
	Budget time.Duration
}

// HookAnswer is the hook's answer to one event.
type HookAnswer struct {
	// Context is the text for the model, which the host's answer
	// carries; "" for none.
	Context string
	// Note is one line for the person running the hook, when the event
	// gets no context for a reason worth saying.
	Note string
}

// Hook answers one hook event of a coding-agent host (ADR 0023, ADR
// 0040): at the start of a session, a digest of the corpus; at a user's
// prompt, the record that answers it as query_decision would, if one
// does; before (or, for Cursor and Gemini CLI, after) a tool writes
// files, the decisions that cover them by affects patterns and @adr
// markers, as check reads them, each said once per file and session, and
// for a new record that proposes a rejected decision again, check's
// resembles-rejected sentence. open opens the repository the event is
// about; it is called only for an event that may get an answer.
//
// Every record file is read once per run. What a run works out is kept
// in the site's Store under the bytes it was read from: the answer for
// the same files (a repeated edit), else the corpus's governance index
// (a first edit of a file in an unchanged corpus: no record is parsed),
// else the records are parsed and both are kept; a prompt reads the
// ranking index kept beside the governance index the same way. Any
// change to any record is a new key, so nothing kept is ever stale.
//
// It takes at most the site's Budget, and stops between two files when
// ctx ends (a SIGTERM): an error then, which the host reads as "no
// context", never as a veto.
func Hook(ctx context.Context, ev agenthost.Event, open func(context.Context) (*HookSite, error)) (HookAnswer, error) {
	switch c := ev.Host.Contract(); {
	case !c.Context:
		return HookAnswer{Note: c.Name + "'s hooks cannot add context for the model (docs/agents.md); nothing to write"}, nil
	case ev.Kind == agenthost.Other && !agenthost.IsToolEvent(ev.Name):
		return HookAnswer{Note: fmt.Sprintf("nothing to add to a %s event", ev.Name)}, nil
	case ev.Kind == agenthost.Other, ev.Kind == agenthost.Prompt && strings.TrimSpace(ev.Prompt) == "", ev.Kind == agenthost.Edit && len(ev.Paths) == 0:
		// No note for an empty prompt (nor for one no record answers):
		// Gemini CLI shows a silent hook's stderr to the user at every
		// prompt.
		return HookAnswer{}, nil
	}
	site, err := open(ctx)
	if err != nil {
		return HookAnswer{}, err
	}
	budget := cmp.Or(site.Budget, HookBudget)
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	h := &hookRun{s: New(site.Reader, Options{}), site: site, ev: ev}
	var ans HookAnswer
	switch ev.Kind {
	case agenthost.SessionStart:
		ans, err = h.sessionStart(ctx)
	case agenthost.Prompt:
		ans, err = h.prompt(ctx)
	default:
		ans, err = h.edit(ctx)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return HookAnswer{}, fmt.Errorf("no answer within %s, the hook's time budget (adrkit explain FILE has none): %w", budget, err)
	}
	return ans, err
}

// hookRun is one event being answered.
type hookRun struct {
	s    *Service
	site *HookSite
	ev   agenthost.Event
}

// edit answers for the files a tool writes.
func (h *hookRun) edit(ctx context.Context) (HookAnswer, error) {
	files, outside := h.site.EditPaths(h.ev.Paths)
	if len(files) == 0 {
		return HookAnswer{Note: strings.Join(outside, ", ") + " is not inside the repository; nothing to add"}, nil
	}
	rep, err := ReadMarkers(ctx, h.site.Heads, files)
	if err != nil {
		return HookAnswer{}, err
	}
	blocks, errs, err := h.governed(ctx, governInput{files: files, markers: rep})
	if err != nil {
		return HookAnswer{}, err
	}
	mem := h.memory()
	if mem != nil {
		blocks = slices.DeleteFunc(blocks, func(b block) bool { return slices.Contains(mem.keys, b.key()) })
		if len(blocks) > 0 {
			mem.remember(blocks)
		}
	}
	text := contextText(h.site.Dir, blocks, errs, h.ev.Omitted, h.ev.Host.Contract().After)
	lines, err := h.newRecords(ctx)
	if err != nil {
		return HookAnswer{}, err
	}
	return HookAnswer{Context: strings.Join(slices.DeleteFunc(append([]string{text}, lines...), func(s string) bool { return s == "" }), "\n")}, nil
}

// newRecords says, for each record file of the ADR directory that the
// edit writes whole (its text in the event) and that is still a proposal
// or a draft, which rejected record it proposes again, as check's
// resembles-rejected finding does: one line each, prefixed "adrkit: ".
func (h *hookRun) newRecords(ctx context.Context) ([]string, error) {
	var out []string
	var kept *askKept
	for _, p := range h.ev.Paths {
		text, ok := h.ev.Texts[p]
		if !ok {
			continue
		}
		files, _ := h.site.EditPaths([]string{p})
		if len(files) == 0 || !isRecordPath(h.site.Dir, files[0]) {
			continue
		}
		r, _ := frontmatter.ParseRecord(files[0], text)
		if r == nil || r.Frontmatter == nil || (r.Frontmatter.Status != adr.StatusProposed && r.Frontmatter.Status != adr.StatusDraft) {
			continue
		}
		if kept == nil {
			c, err := h.read(ctx)
			if err != nil {
				return nil, err
			}
			if _, kept, _, err = h.indexes(ctx, c, true); err != nil {
				return nil, err
			}
		}
		id := r.Frontmatter.ID
		doc, conf, ok := resemblesRejectedText(kept.ix.rank, r.Frontmatter.Title, func(doc int) bool {
			fm := kept.p.Records[doc].Frontmatter
			return fm.Status == adr.StatusRejected && fm.ID != id
		})
		if ok {
			rej := kept.p.Records[doc]
			out = append(out, "adrkit: "+resemblesMessage(id, rej.Frontmatter.ID, rej.Frontmatter.Title, rej.SourcePath, conf)+".")
		}
	}
	return out, nil
}

// isRecordPath reports whether a repository path names a record file of
// the ADR directory dir (as HookSite.Dir names it).
func isRecordPath(dir, file string) bool {
	if dir == "" {
		return false // outside the repository
	}
	if dir == "." {
		dir = ""
	}
	d, name := path.Split(file)
	return strings.TrimSuffix(d, "/") == dir && corpus.IsCandidateName(name)
}

// sessionStart answers with the digest of the corpus. After a clear or a
// compaction the model no longer holds what it was told: the session's
// memory is forgotten.
func (h *hookRun) sessionStart(ctx context.Context) (HookAnswer, error) {
	if h.ev.Source == "clear" || h.ev.Source == "compact" {
		if m := h.memory(); m != nil {
			m.keys = nil
			m.save()
		}
	}
	c, err := h.read(ctx)
	if err != nil {
		return HookAnswer{}, err
	}
	ix, _, _, err := h.indexes(ctx, c, false)
	if err != nil {
		return HookAnswer{}, err
	}
	return HookAnswer{Context: digestText(h.site.Dir, digestOf(ix))}, nil
}

// prompt answers a user's prompt as query_decision answers a question,
// in one line, and with nothing when no record answers it. Only the
// start of a long prompt is read (ask.Rank's bound).
func (h *hookRun) prompt(ctx context.Context) (HookAnswer, error) {
	c, err := h.read(ctx)
	if err != nil {
		return HookAnswer{}, err
	}
	_, kept, _, err := h.indexes(ctx, c, true)
	if err != nil {
		return HookAnswer{}, err
	}
	a := askOf(kept.p, kept.ix, AskInput{Question: h.ev.Prompt, Limit: 1})
	return HookAnswer{Context: promptText(a)}, nil
}

// keyed is the corpus as a run read it, and the key of that state ("":
// nothing is kept for it).
type keyed struct {
	*corpusRead
	key string
}

// read reads every record file of the corpus, once, and keys its state:
// the SHA-256 of the site's place and of every candidate, its display
// path and why it was left out or the SHA-256 of its bytes. Nothing else
// of the directory goes into an answer.
func (h *hookRun) read(ctx context.Context) (keyed, error) {
	c, err := h.s.readKeeping(ctx)
	if err != nil || h.site.Place == "" {
		return keyed{corpusRead: c}, err
	}
	hash := sha256.New()
	field := hashField(hash)
	field("adrkit-hook-corpus/3")
	field(h.site.Place)
	for _, f := range c.files {
		field(f.Path)
		field(strconv.Itoa(int(f.Exclusion)))
		hash.Write(f.sum[:])
	}
	return keyed{corpusRead: c, key: hex.EncodeToString(hash.Sum(nil))}, nil
}

// hashField writes length-prefixed strings to h: no two lists of fields
// hash alike.
func hashField(h io.Writer) func(string) {
	return func(s string) { _, _ = io.WriteString(h, strconv.Itoa(len(s))+":"+s) }
}

// governed works out what covers in's files, with the first found of: the
// answer kept for the same files and markers of the same corpus; the
// corpus's index (kept, or made from the records read) and a match, whose
// answer is then kept.
func (h *hookRun) governed(ctx context.Context, in governInput) ([]block, int, error) {
	c, err := h.read(ctx)
	if err != nil {
		return nil, 0, err
	}
	var kept keptAnswer
	if data, ok := h.get(ports.ShelfAnswer, answerKey(c.key, in)); ok && json.Unmarshal(data, &kept) == nil {
		return kept.Blocks, kept.Errors, nil
	}
	ix, _, c, err := h.indexes(ctx, c, false)
	if err != nil {
		return nil, 0, err
	}
	g, err := h.s.govern(ctx, ix, in)
	if err != nil {
		return nil, 0, err
	}
	kept = keptAnswer{Blocks: blocksOf(g), Errors: g.Errors}
	if data, err := json.Marshal(kept); err == nil {
		h.put(ports.ShelfAnswer, answerKey(c.key, in), data)
	}
	return kept.Blocks, kept.Errors, nil
}

// keptAnswer is an answer as the store keeps it.
type keptAnswer struct {
	Blocks []block `json:"blocks"`
	Errors int     `json:"errors"`
}

// answerKey is the key of the answer for in's files of the corpus whose
// state is key ("" for none): the files and what their heads declare.
func answerKey(key string, in governInput) string {
	if key == "" {
		return ""
	}
	hash := sha256.New()
	field := hashField(hash)
	field("adrkit-hook-answer/4") // 4: a proposal's supersedes is pending (ADR 0045)
	field(key)
	field(strconv.Itoa(len(in.files)))
	for _, f := range in.files {
		field(f)
	}
	for _, s := range in.markers.Files {
		field(s.Path)
		field(string(s.State))
		field(strconv.FormatBool(s.Truncated) + "/" + strconv.Itoa(s.Omitted))
		for _, d := range s.Declarations {
			field(d.Ref + "@" + strconv.Itoa(d.Line))
		}
	}
	return hex.EncodeToString(hash.Sum(nil))
}

// askKept is what an answer to a question needs of a corpus: a
// projection holding the records' names and lines, and its index.
type askKept struct {
	p  *corpus.Projection
	ix *askIndex
}

// indexes is the governance index of the corpus c read and, when
// withAsk, what an answer to a question needs of it: those kept under
// its key, else made from c's bytes (parsed here, not read again) and
// kept. A corpus that changed while it was read is read again, as the
// read pipeline does (loadAttempts); the read the indexes are made from
// is returned with them.
func (h *hookRun) indexes(ctx context.Context, c keyed, withAsk bool) (*governIndex, *askKept, keyed, error) {
	if data, ok := h.get(ports.ShelfIndex, c.key); ok {
		if ix, err := decodeIndex(data); err == nil {
			if !withAsk {
				return ix, nil, c, nil
			}
			if data, ok := h.get(ports.ShelfIndex, askKey(c.key)); ok {
				if p, ax, err := decodeAsk(data); err == nil {
					return ix, &askKept{p, ax}, c, nil
				}
			}
		}
	}
	for attempt := 1; ; attempt++ {
		p, err := h.s.projectRead(ctx, c.corpusRead)
		var u *ports.UnavailableError
		switch {
		case err == nil:
			ix := indexOf(p)
			h.put(ports.ShelfIndex, c.key, encodeIndex(ix))
			var kept *askKept
			if withAsk {
				kept = &askKept{p, h.s.memo.ask.index(p)}
				h.put(ports.ShelfIndex, askKey(c.key), encodeAsk(p, kept.ix))
			}
			return ix, kept, c, nil
		case attempt == loadAttempts || !errors.As(err, &u) || u.Reason != corpus.CorpusChangedDuringLoad:
			return nil, nil, c, err
		}
		if c, err = h.read(ctx); err != nil {
			return nil, nil, c, err
		}
	}
}

// askKey is the key of what an answer needs of the corpus whose state is
// key ("" for none).
func askKey(key string) string {
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("adrkit-ask/1\x00" + key))
	return hex.EncodeToString(sum[:])
}

// get reads a kept value; put keeps one, and a failure only costs the
// next run. Both do nothing without a store or a key.
func (h *hookRun) get(shelf ports.Shelf, key string) ([]byte, bool) {
	if h.site.Store == nil || key == "" {
		return nil, false
	}
	return h.site.Store.Get(shelf, key)
}

func (h *hookRun) put(shelf ports.Shelf, key string, value []byte) {
	if h.site.Store != nil && key != "" {
		_ = h.site.Store.Put(shelf, key, value)
	}
}

// maxKeys bounds what one session's memory holds: the oldest keys are
// forgotten first.
const maxKeys = 1024

// memory is what one session was told: the keys of the blocks given to
// it (block.key), oldest first, kept on ports.ShelfSession under a hash
// of the session's id (a host's id, of any length and any bytes).
type memory struct {
	store ports.HookStore
	slot  string
	keys  []string
}

// sessionSlot is the key of a session's memory.
func sessionSlot(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// memory is the session's memory, or nil when there is no session or
// nowhere to keep it. A memory that cannot be read is empty.
func (h *hookRun) memory() *memory {
	if h.ev.SessionID == "" || h.site.Store == nil {
		return nil
	}
	m := &memory{store: h.site.Store, slot: sessionSlot(h.ev.SessionID)}
	data, _ := m.store.Get(ports.ShelfSession, m.slot)
	m.keys = strings.Fields(string(data))
	return m
}

// remember adds the keys of blocks, forgetting the oldest past maxKeys,
// and saves the memory, whole; a failure to save is ignored (the session
// is told again).
func (m *memory) remember(blocks []block) {
	for _, b := range blocks {
		if k := b.key(); !slices.Contains(m.keys, k) {
			m.keys = append(m.keys, k)
		}
	}
	m.keys = m.keys[max(0, len(m.keys)-maxKeys):]
	m.save()
}

func (m *memory) save() {
	_ = m.store.Put(ports.ShelfSession, m.slot, []byte(strings.Join(m.keys, "\n")+"\n"))
}
