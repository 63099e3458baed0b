package executor

import "math/bits"

// attemptSet is the attempts of one job that have files on an executor:
// a bit per task for first attempts, which are nearly all of them, and a
// list of the later ones, so that a job of millions of tasks costs the
// executor a bit per task rather than a record per attempt.
type attemptSet struct {
	first map[int32][]uint64 // by stage: bit i is task i's attempt 0
	later []attemptFiles     // the attempts after the first
}

// attemptFiles are tasklog.Name's numbers of one attempt.
type attemptFiles struct{ stage, task, attempt int32 }

func (s *attemptSet) add(a attemptFiles) {
	if a.attempt != 0 || a.task < 0 {
		s.later = append(s.later, a)
		return
	}
	if s.first == nil {
		s.first = map[int32][]uint64{}
	}
	set, w := s.first[a.stage], int(a.task/64)
	if w >= len(set) {
		set = append(set, make([]uint64, w+1-len(set))...)
	}
	set[w] |= 1 << (a.task % 64)
	s.first[a.stage] = set
}

// each calls fn with every attempt of the set, once each (an attempt
// added twice after its first may come twice).
func (s *attemptSet) each(fn func(attemptFiles)) {
	for stage, set := range s.first {
		for w, word := range set {
			for ; word != 0; word &= word - 1 {
				fn(attemptFiles{stage: stage, task: int32(w*64 + bits.TrailingZeros64(word))})
			}
		}
	}
	for _, a := range s.later {
		fn(a)
	}
}
