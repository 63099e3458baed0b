// Command protogen turns Spindle's .proto files into Go with a pinned
// compiler and generator: github.com/bufbuild/protocompile parses and links
// the sources, protoc-gen-go's own generator writes the code. Both versions
// come from tools/go.mod, so every machine produces the same bytes and none
// needs a protoc binary.
//
// Sources live beside their generated code under a root (the repository);
// each foo.proto yields foo.pb.go next to it (paths=source_relative).
//
//	protogen -root DIR FILE.proto...          write the generated files
//	protogen -root DIR -check [-scan DIR]... FILE.proto...
//	                                          fail if any differs or is missing,
//	                                          or a .pb.go under a -scan DIR has no source
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

func main() {
	root := flag.String("root", ".", "directory the .proto paths are relative to")
	check := flag.Bool("check", false, "compare with the files on disk instead of writing")
	var scan []string
	flag.Func("scan", "with -check: a directory under root where every .pb.go must come from a listed source (repeatable)", func(dir string) error {
		scan = append(scan, dir)
		return nil
	})
	flag.Parse()
	if err := run(*root, *check, scan, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func run(root string, check bool, scan []string, sources []string) error {
	generated, err := generate(root, sources)
	if err != nil {
		return err
	}
	if !check {
		for name, content := range generated {
			if err := os.WriteFile(filepath.Join(root, name), content, 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("protogen: %d file(s) generated\n", len(generated))
		return nil
	}
	var problems []string
	for _, name := range sortedKeys(generated) {
		onDisk, err := os.ReadFile(filepath.Join(root, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			problems = append(problems, name+": missing; run make proto")
		case err != nil:
			return err
		case !bytes.Equal(onDisk, generated[name]):
			problems = append(problems, name+": differs from its .proto; run make proto")
		}
	}
	for _, dir := range scan {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".pb.go") {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			if _, ok := generated[filepath.ToSlash(rel)]; !ok {
				problems = append(problems, rel+": generated code with no .proto source")
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(problems) > 0 {
		return errors.New("generated code is stale:\n  " + strings.Join(problems, "\n  "))
	}
	fmt.Printf("protogen: %d generated file(s) up to date\n", len(generated))
	return nil
}

// generate compiles the sources and returns the generated files by path.
func generate(root string, sources []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(sources) == 0 {
		return out, nil
	}
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: []string{root},
		}),
		// Comments in the sources become doc comments in the Go code.
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := compiler.Compile(context.Background(), sources...)
	if err != nil {
		return nil, err
	}
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: sources,
		Parameter:      proto.String("paths=source_relative"),
	}
	seen := map[string]bool{}
	for _, f := range linked {
		req.ProtoFile = appendWithImports(req.ProtoFile, f, seen)
	}
	gen, err := protogen.Options{}.New(req)
	if err != nil {
		return nil, err
	}
	gen.SupportedFeatures = internal_gengo.SupportedFeatures
	gen.SupportedEditionsMinimum = internal_gengo.SupportedEditionsMinimum
	gen.SupportedEditionsMaximum = internal_gengo.SupportedEditionsMaximum
	for _, f := range gen.Files {
		if f.Generate {
			internal_gengo.GenerateFile(gen, f)
		}
	}
	resp := gen.Response()
	if resp.Error != nil {
		return nil, errors.New(resp.GetError())
	}
	for _, f := range resp.File {
		out[f.GetName()] = []byte(f.GetContent())
	}
	return out, nil
}

// appendWithImports adds fd after everything it imports: a
// CodeGeneratorRequest lists files in dependency order.
func appendWithImports(list []*descriptorpb.FileDescriptorProto, fd protoreflect.FileDescriptor, seen map[string]bool) []*descriptorpb.FileDescriptorProto {
	if seen[fd.Path()] {
		return list
	}
	seen[fd.Path()] = true
	imports := fd.Imports()
	for i := 0; i < imports.Len(); i++ {
		list = appendWithImports(list, imports.Get(i).FileDescriptor, seen)
	}
	return append(list, protodesc.ToFileDescriptorProto(fd))
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
