// The code generators Spindle pins and its checks and test tools (make lint,
// make mutate, make test), kept out of the main module so their
// dependencies never reach the product.
module github.com/spindle-yarn/spindle/tools

go 1.26

require (
	github.com/bufbuild/protocompile v0.14.1
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/sync v0.8.0 // indirect
