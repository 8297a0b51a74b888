// The cheap text test run before parsing (files that mention neither library nor any eval entry point are
// not analyzed at all): one word list per library, in shared/files/agent-markers.ts.
export { mentionsAgentLibrary } from "@agent-lens/files/agent-markers";
