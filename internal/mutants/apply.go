package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
)

// mutations is, for each mutator type make mutate runs (gremlins's defaults), the token it puts
// in place of each token it mutates: copied from gremlins v0.6.0, internal/engine/mappings.go
// (tokenMutations). gremlins applies a type to every node whose token the type's row names,
// whatever the node's kind, so INVERT_NEGATIVES turns a binary minus into a plus as well, and
// ARITHMETIC_BASE a unary minus: both mutants of a minus give the same source.
var mutations = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {
		token.ADD: token.SUB,
		token.MUL: token.QUO,
		token.QUO: token.MUL,
		token.REM: token.MUL,
		token.SUB: token.ADD,
	},
	"CONDITIONALS_BOUNDARY": {
		token.GEQ: token.GTR,
		token.GTR: token.GEQ,
		token.LEQ: token.LSS,
		token.LSS: token.LEQ,
	},
	"CONDITIONALS_NEGATION": {
		token.EQL: token.NEQ,
		token.GEQ: token.LSS,
		token.GTR: token.LEQ,
		token.LEQ: token.GTR,
		token.LSS: token.GEQ,
		token.NEQ: token.EQL,
	},
	"INCREMENT_DECREMENT": {
		token.DEC: token.INC,
		token.INC: token.DEC,
	},
	"INVERT_NEGATIVES": {
		token.SUB: token.ADD,
	},
}

// operator is the token of the node kinds gremlins v0.6.0 mutates, and its position
// (internal/engine/node.go, NewTokenNode); nil for other nodes.
func operator(n ast.Node) (*token.Token, token.Pos) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return &n.Tok, n.TokPos
	case *ast.BinaryExpr:
		return &n.Op, n.OpPos
	case *ast.BranchStmt:
		return &n.Tok, n.TokPos
	case *ast.IncDecStmt:
		return &n.Tok, n.TokPos
	case *ast.UnaryExpr:
		return &n.Op, n.OpPos
	}
	return nil, token.NoPos
}

// mutate is src, the source of file name, with the mutant of type kind whose operator is at
// line:column applied, printed as gremlins prints the mutated file: the file parsed with its
// comments, the one token replaced in the syntax tree, the tree printed by go/printer's Fprint.
func mutate(name string, src []byte, line, column int, kind string) ([]byte, error) {
	table, ok := mutations[kind]
	if !ok {
		return nil, fmt.Errorf("%s:%d:%d: mutator %s is not one make mutate runs", name, line, column, kind)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var found []*token.Token
	ast.Inspect(file, func(n ast.Node) bool {
		tok, pos := operator(n)
		if tok == nil {
			return true
		}
		if p := fset.Position(pos); p.Line == line && p.Column == column {
			if _, ok := table[*tok]; ok {
				found = append(found, tok)
			}
		}
		return true
	})
	if len(found) != 1 {
		return nil, fmt.Errorf("%s:%d:%d: %d operators %s mutates there, want 1", name, line, column, len(found), kind)
	}
	*found[0] = table[*found[0]]
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, file); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
