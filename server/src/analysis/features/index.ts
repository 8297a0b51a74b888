// Language features as pure functions over the analysis (no LSP types): the language server and the
// tests call these; the LSP layer only converts ranges and kinds.
export { definitionAt } from "./definition";
export { referencesAt } from "./references";
export { prepareRenameAt, renameEdits, type RenameEdit } from "./rename";
export { hoverAt } from "./hover";
export { completionsAt, completionsAfterEdit } from "./completion";
export { documentSymbolTree, type OutlineNode } from "./document-symbols";
export { quickFixesIn } from "./code-actions";
export { lensesOf } from "./lenses";
