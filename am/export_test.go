package am

// What the package's own tests in package am_test (which run the driver
// with am/amtest) need of its insides: names they compare against.

var (
	ExecutorTag = executorTag
	Priority    = priority
)
