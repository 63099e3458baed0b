package clean

// job is the package's own type.
type job struct{ name string }
