// One instance, kept for good, of each class whose objects live only while one file is analyzed.
//
// V8 gives every object a hidden class (a "map"), and optimized code is compiled against the maps it
// saw. A map that no live object has is freed by the next full collection, and every optimized function
// that embedded it is thrown away with its type feedback: the functions start over in the interpreter.
// A Reader or a Props exists only during an extraction, so after any full collection between two
// analyses (V8 runs them as the heap grows, or when the process goes idle) the next analysis ran the
// hottest readers unoptimized — flow files took 2–3× longer right after one (`--trace-deopt` says
// "weak objects"). An instance kept here keeps its class's map, and the compiled code, alive.
//
// Closures meet the same fate by another road: V8 keeps a closure's optimized code only while one of its
// instances lives. A closure made anew for each analysis (a callback written inline, a rule object built
// per call) is dead after it, so every full collection drops its code and the next analysis compiles it
// again (`--trace-opt` showed reachability's `mark`, the agent-reference rules' `forEachUse` and the
// scope lookup's `add` compiled once per analysis). Code on the hot path of an analysis is written as
// module functions and class methods instead, which live as long as the process.
//
// Plain object literals are no different when none of them outlives an analysis: the declaration
// resolver's `{ kind: "value", at, node }` answers are read and dropped, and after every few full
// collections their map was gone and the value readers (`Values.valueOf`, `object`, `string`, the
// request-config reader) were thrown away with it (`--trace-deopt`, machine files: "weak objects";
// `--retain-maps-for-n-gc=100` made it stop). Such a literal is made by one function, of which one
// answer is kept here.
import { ts as morphTs } from "ts-morph";
import ts = morphTs;

const kept: object[] = [];

/** A four-character file (`({})`) the kept instances point into: nothing of the user's is kept. */
export const shapeFile: ts.SourceFile = ts.createSourceFile("/agent-lens/shape.ts", "({})", ts.ScriptTarget.Latest);

/** Keeps `instance` alive for the life of the process (see above); returns it. */
export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
