package core

import (
	t "time"
)

func now() t.Time { return t.Now() }

func wait() { t.Sleep(t.Second) }

var clock = t.Now

func timers() {
	<-t.After(t.Second)
	<-t.Tick(t.Second)
	t.NewTimer(t.Second).Stop()
	t.NewTicker(t.Second).Stop()
	t.AfterFunc(t.Second, func() {})
	_ = t.Since(t.Time{})
	_ = t.Until(t.Time{})
}
