package core

func spawn(f func()) {
	go f()
}
