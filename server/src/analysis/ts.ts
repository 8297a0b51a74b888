// The TypeScript compiler API the analysis parses with: the `typescript` package itself (its parser and
// node helpers; no program, no checker). Imported from here only, so the parser is one choice in one place.
import ts from "typescript";

export { ts };
