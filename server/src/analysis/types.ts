// Base types shared by every part of the analysis. Pure data: no ts-morph, LSP or VS Code types here,
// so the CLI, the language server and the tests all consume the same shapes. They travel to clients, so
// they are defined in shared/protocol (the ground floor, which imports nothing of ours) and named here.
export { FINDING_CODES, OFF_BY_DEFAULT, type FindingCode, type Severity } from "@agent-lens/protocol/codes";
export type { Finding, QuickFix, SourceRange, TextEdit } from "@agent-lens/protocol/analysis";
