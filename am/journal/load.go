package journal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrUnreadable is in Load's error when the store could not be listed or
// a segment read: nothing is known of the journal, and trying again
// later may read it.
var ErrUnreadable = errors.New("the journal could not be read")

// ErrRefused is in Load's error when the journal was read and is
// refused: it fails a checksum, is cut short, names another application,
// says the impossible, or is of a Spindle that named its segments
// otherwise. Reading it again will not change that.
var ErrRefused = errors.New("the journal is refused")

// refusal is a refused journal's error: its message says which segment
// and line.
type refusal struct{ err error }

func (r refusal) Error() string        { return r.err.Error() }
func (r refusal) Unwrap() error        { return r.err }
func (r refusal) Is(target error) bool { return target == ErrRefused }

// Load reads app's journal from s: the state its newest chain says. A
// chain is one attempt's segments; Load takes the newest attempt that
// wrote any (a newer attempt that died before its first segment leaves
// the one before in force), from its last snapshot on, and ignores every
// older attempt's. An empty journal is a new State.
//
// The error says which of two kinds it is: ErrUnreadable when the store
// failed (try again), ErrRefused when what it holds cannot be applied
// (the whole journal is refused: nothing of it is half-applied).
func Load(ctx context.Context, s Store, app string) (*State, error) {
	names, err := s.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: listing it: %w", ErrUnreadable, err)
	}
	chain, err := newestChain(names)
	if err != nil {
		return nil, err
	}
	if len(chain) == 0 {
		return NewState(app), nil
	}
	chain, segments, err := readChain(ctx, s, app, chain)
	if err != nil {
		return nil, err
	}
	st := NewState(app)
	for i, entries := range segments {
		for k, e := range entries {
			if err := st.Apply(e); err != nil {
				return nil, refusal{fmt.Errorf("journal segment %s line %d: %w", chain[i].name(), k+2, err)}
			}
		}
	}
	return st, nil
}

// newestChain is the segments of the newest attempt that wrote any, in
// the order written.
func newestChain(names []string) ([]segment, error) {
	var chain []segment
	for _, name := range names {
		seg, kind := parseName(name)
		switch {
		case kind == legacyName:
			// An application's attempts all run the binary it was
			// submitted with (deploy/staging's cache names it by
			// content), so this is no upgrade under way: refusing costs
			// nothing a reader could have had.
			return nil, refusal{fmt.Errorf("journal segment %s: a journal of version 1, whose names carry no attempt: this Spindle reads version %d", name, version)}
		case kind != segmentOf:
		case len(chain) == 0 || seg.attempt > chain[0].attempt:
			chain = append(chain[:0], seg)
		case seg.attempt == chain[0].attempt:
			chain = append(chain, seg)
		}
	}
	slices.SortFunc(chain, func(a, b segment) int { return cmp.Compare(a.seq, b.seq) })
	return chain, nil
}

// readChain reads chain from its end back to its last snapshot: the
// segments from that snapshot on, with their entries. A segment missing
// between them refuses the journal.
func readChain(ctx context.Context, s Store, app string, chain []segment) ([]segment, [][]Entry, error) {
	var read [][]Entry // from the last back
	for i := len(chain) - 1; i >= 0; i-- {
		name := chain[i].name()
		if i < len(chain)-1 && chain[i].seq != chain[i+1].seq-1 {
			missing := segment{chain[i].attempt, chain[i+1].seq - 1}
			return nil, nil, refusal{fmt.Errorf("journal segment %s: segment %s before it is missing", chain[i+1].name(), missing.name())}
		}
		data, err := s.Read(ctx, name)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: reading segment %s: %w", ErrUnreadable, name, err)
		}
		kind, entries, err := Decode(name, data, app)
		if err != nil {
			return nil, nil, refusal{err}
		}
		read = append(read, entries)
		if kind == Snapshot {
			slices.Reverse(read)
			return chain[i:], read, nil
		}
	}
	return nil, nil, refusal{fmt.Errorf("journal segment %s: attempt %d's journal has no snapshot to start from", chain[0].name(), chain[0].attempt)}
}
