package settings

import (
	"time"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// Reader reads typed values off a configuration, keeping the first
// error: a run of reads is checked once, with Err.
type Reader struct {
	c   *config.Config
	err error
}

// Read starts a run of reads of c.
func Read(c *config.Config) *Reader { return &Reader{c: c} }

// Err is the first error of the reads so far.
func (s *Reader) Err() error { return s.err }

func (s *Reader) Int(key string) int {
	v, err := s.c.Int(key)
	s.Keep(err)
	return v
}

func (s *Reader) Bool(key string) bool {
	v, err := s.c.Bool(key)
	s.Keep(err)
	return v
}

func (s *Reader) String(key string) string {
	v, err := s.c.String(key)
	s.Keep(err)
	return v
}

func (s *Reader) Enum(key string) string {
	v, err := s.c.Enum(key)
	s.Keep(err)
	return v
}

func (s *Reader) Duration(key string) time.Duration {
	v, err := s.c.Duration(key)
	s.Keep(err)
	return v
}

func (s *Reader) Float(key string) float64 {
	v, err := s.c.Float(key)
	s.Keep(err)
	return v
}

func (s *Reader) Bytes(key string) int64 {
	v, err := s.c.Bytes(key)
	s.Keep(err)
	return v
}

// SizeMiB is a size key in MiB.
func (s *Reader) SizeMiB(key string) int64 {
	v, err := s.c.SizeMiB(key)
	s.Keep(err)
	return v
}

// Keep keeps err when it is the first.
func (s *Reader) Keep(err error) {
	if s.err == nil {
		s.err = err
	}
}
