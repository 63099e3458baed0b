package splits

// perBytes packs files into splits of about size bytes in listing order:
// a file that fits beside the open split's bytes (an empty one always
// does) joins it, else the open
// split closes and the file starts the next. A file larger than size is
// cut at its block boundaries into runs of blocks of at most size bytes
// (a block larger than size is a run of its own), its last run left open
// for the files after it.
func (p *planner) perBytes(files []File, size int64) {
	var bytes int64 // in the open split
	p.hosts.reset()
	for i := range files {
		f := &files[i]
		if f.Length == 0 || f.Length <= size-bytes { // an empty file has no block to cut: it joins even a full split
			p.open = append(p.open, Piece{Path: f.Path, Length: f.Length})
			p.hosts.addFile(f)
			p.lastLength = f.Length
			bytes += f.Length
			continue
		}
		p.closeOpen()
		bytes = 0
		for b := range f.blocks() {
			if p.over {
				return
			}
			if bytes > 0 && b.Length > size-bytes {
				p.closeOpen()
				bytes = 0
			}
			p.extend(f.Path, b)
			p.lastLength = f.Length
			bytes += b.Length
		}
	}
	p.closeOpen()
}

// extend adds block b of path to the open split: a new piece, or the
// last one grown when b follows on from it.
func (p *planner) extend(path string, b Block) {
	if n := len(p.open); n > 0 && p.open[n-1].Path == path && p.open[n-1].Offset+p.open[n-1].Length == b.Offset {
		p.open[n-1].Length += b.Length
	} else {
		p.open = append(p.open, Piece{Path: path, Offset: b.Offset, Length: b.Length})
	}
	p.hosts.addBlock(b)
}

// closeOpen makes the open split, if it has pieces, a split.
func (p *planner) closeOpen() {
	if len(p.open) == 0 {
		return
	}
	only := p.open[0]
	whole := len(p.open) == 1 && only.Offset == 0 && only.Length == p.lastLength
	p.add(p.open, p.hosts.top(), whole)
	p.open = nil
	p.hosts.reset()
}
