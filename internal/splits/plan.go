package splits

import (
	"cmp"
	"fmt"
	"slices"
)

// Split is what one task reads: pieces of files, in listing order, and
// the hosts it would best run on.
type Split struct {
	Pieces []Piece
	// Hosts hold the most of the split's bytes, most first (ties by
	// name), at most MaxHosts; none when no host is known (local files).
	Hosts []string
	// WholeFile is set when the split is one piece that is a whole file:
	// the task gets its path alone too (SPINDLE_INPUT_PATH).
	WholeFile bool
}

// Piece is a byte range of one file: length bytes from offset.
type Piece struct {
	Path           string
	Offset, Length int64
}

// Plan cuts a listing into splits by mode, refusing more than limit
// splits (a job's tasks are bounded: jobspec's) before making them. The
// listing is taken in path order whatever its order, so the same files
// always give the same splits; a path listed twice is an error. An empty
// file is a split of its own (PerFile, PerBlock: one piece of length 0,
// as Hadoop gives it a split) or a piece packed with others; an empty
// listing is no splits.
func Plan(listing []File, mode Mode, limit int) ([]Split, error) {
	if err := mode.Check(); err != nil {
		return nil, err
	}
	files := slices.Clone(listing)
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	var blocks int64
	for i := range files {
		if err := files[i].check(); err != nil {
			return nil, err
		}
		if i > 0 && files[i].Path == files[i-1].Path {
			return nil, fmt.Errorf("%s: listed twice", files[i].Path)
		}
		if blocks += files[i].blockCount(); blocks > MaxBlocks {
			return nil, fmt.Errorf("more than %d blocks in all (at %s): a block size too small for the files", MaxBlocks, files[i].Path)
		}
	}
	p := planner{limit: limit}
	switch mode.kind() {
	case PerFile:
		p.perFiles(files, 1)
	case PerFiles:
		p.perFiles(files, mode.N)
	case PerBlock:
		p.perBlock(files)
	case PerBytes:
		p.perBytes(files, mode.N)
	}
	if p.over {
		return nil, fmt.Errorf("%d files split %s make more than the %d splits (tasks) allowed", len(files), mode, limit)
	}
	return p.splits, nil
}

// MaxBlocks bounds the blocks of a listing, which Plan walks one by one:
// 64Mi blocks of HDFS's default 128 MiB are 8 PiB. Only a local block size
// far too small for its files comes near it.
const MaxBlocks = 1 << 26

// planner gathers splits, stopping once there are more than limit.
type planner struct {
	limit  int
	splits []Split
	open   []Piece // the split being packed (PerBytes)
	// lastLength is the length of the file of open's last piece.
	lastLength int64
	hosts      hostBytes
	over       bool
}

// add starts a split of pieces, unless that would pass the limit.
func (p *planner) add(pieces []Piece, hosts []string, whole bool) {
	if len(p.splits) >= p.limit {
		p.over = true
		return
	}
	p.splits = append(p.splits, Split{Pieces: pieces, Hosts: hosts, WholeFile: whole})
}

// perFiles packs n whole files a split.
func (p *planner) perFiles(files []File, n int64) {
	for i := 0; i < len(files) && !p.over; {
		end := i + int(min(n, int64(len(files)-i)))
		pieces := make([]Piece, 0, end-i)
		p.hosts.reset()
		for _, f := range files[i:end] {
			pieces = append(pieces, Piece{Path: f.Path, Length: f.Length})
			p.hosts.addFile(&f)
		}
		p.add(pieces, p.hosts.top(), end-i == 1)
		i = end
	}
}

// perBlock gives every block a split, and every empty file one.
func (p *planner) perBlock(files []File) {
	for i := range files {
		f := &files[i]
		if int64(len(p.splits))+max(f.blockCount(), 1) > int64(p.limit) {
			p.over = true
			return
		}
		if f.Length == 0 {
			p.add([]Piece{{Path: f.Path}}, nil, true)
			continue
		}
		for b := range f.blocks() {
			p.hosts.reset()
			p.hosts.addBlock(b)
			p.add([]Piece{{Path: f.Path, Offset: b.Offset, Length: b.Length}}, p.hosts.top(), b.Length == f.Length)
		}
	}
}

// Path is the split's one file when it is that file whole (WholeFile),
// for SPINDLE_INPUT_PATH; "" otherwise.
func (s *Split) Path() string {
	if !s.WholeFile || len(s.Pieces) != 1 {
		return ""
	}
	return s.Pieces[0].Path
}
