// Language features as pure functions over the analysis (no LSP types): the language server and the
// tests call these; the LSP layer only converts ranges and kinds.
export { locate, symbolAt, nameSpanIn, type SymbolIndex, type CursorTarget } from "./locate";
export { definitionAt } from "./definition";
export { referencesAt, type Location } from "./references";
export { prepareRenameAt, renameEdits, invalidNewName, type PrepareRenameResult, type RenameResult, type RenameEdit } from "./rename";
export { hoverAt, type HoverResult } from "./hover";
export { completionsAt, completionsAfterEdit, DURATION_SUGGESTIONS, type CompletionEntry } from "./completion";
export { documentSymbolTree, type OutlineNode } from "./documentSymbols";
export { quickFixesIn, type QuickFixAction } from "./codeActions";
export { lensesOf } from "./lenses";
