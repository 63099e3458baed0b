package docs_test

import (
	"go/ast"
	"strings"
)

// declare records f's top-level names, each type's fields and methods, and
// every name anywhere in the module's set.
func (m *module) declare(p *pkg, f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				m.declareTop(p, d.Name.Name)
				continue
			}
			if typ := receiverType(d.Recv.List[0].Type); typ != "" {
				m.declareMember(p, typ, d.Name.Name, nil)
			}
		case *ast.GenDecl:
			m.declareGen(p, d)
		}
	}
}

func (m *module) declareGen(p *pkg, d *ast.GenDecl) {
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			for _, n := range s.Names {
				m.declareTop(p, n.Name)
			}
		case *ast.TypeSpec:
			m.declareTop(p, s.Name.Name)
			m.types[s.Name.Name] = append(m.types[s.Name.Name], p)
			m.declareType(p, s.Name.Name, s.Type)
		}
	}
}

// declareType records a struct's fields and an interface's methods, and
// what either embeds (their members are promoted).
func (m *module) declareType(p *pkg, name string, typ ast.Expr) {
	var fields *ast.FieldList
	switch t := typ.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			p.embeds[name] = append(p.embeds[name], f.Type)
			if embedded := typeName(f.Type); embedded != "" {
				m.declareMember(p, name, embedded, f.Type)
			}
			continue
		}
		for _, n := range f.Names {
			m.declareMember(p, name, n.Name, f.Type)
		}
	}
}

func (m *module) declareTop(p *pkg, name string) {
	p.decls[name] = true
	m.names[name] = true
}

func (m *module) declareMember(p *pkg, typ, name string, fieldType ast.Expr) {
	if p.members[typ] == nil {
		p.members[typ] = map[string]ast.Expr{}
	}
	p.members[typ][name] = fieldType
	m.names[name] = true
}

// receiverType is the name of a method's receiver type: T of *T, T[K].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// typeName is the unqualified name of a (pointer to a) named type, as a
// field embedding it is called: Mutex of sync.Mutex.
func typeName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// namedType resolves a field's type to the module's package and type it
// names, if it names one: T or *T in p, q.T in the module's package q.
func (m *module) namedType(p *pkg, e ast.Expr) (*pkg, string) {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch t := e.(type) {
	case *ast.Ident:
		return p, t.Name
	case *ast.SelectorExpr:
		if q, ok := t.X.(*ast.Ident); ok {
			for _, other := range m.byName[q.Name] {
				if _, ok := other.members[t.Sel.Name]; ok || other.decls[t.Sel.Name] {
					return other, t.Sel.Name
				}
			}
		}
	}
	return nil, ""
}

// resolve says whether the chain of names exists in p: a top-level name,
// then a type's fields and methods (promoted ones too), following each
// field's type to the next.
func (m *module) resolve(p *pkg, chain []string) bool {
	if !p.decls[chain[0]] {
		return false
	}
	return m.resolveMembers(p, chain[0], chain[1:], 0)
}

func (m *module) resolveMembers(p *pkg, typ string, chain []string, depth int) bool {
	if len(chain) == 0 {
		return true
	}
	if depth > 8 {
		return false
	}
	if fieldType, ok := p.members[typ][chain[0]]; ok {
		if len(chain) == 1 {
			return true
		}
		next, nextType := m.namedType(p, fieldType)
		return next != nil && m.resolveMembers(next, nextType, chain[1:], depth+1)
	}
	for _, e := range p.embeds[typ] {
		if next, nextType := m.namedType(p, e); next != nil && m.resolveMembers(next, nextType, chain, depth+1) {
			return true
		}
	}
	return false
}

// hasPrefixDir says whether rel is dir or under it.
func hasPrefixDir(rel, dir string) bool { return rel == dir || strings.HasPrefix(rel, dir+"/") }
