// A cheap text test run before parsing: files that mention neither library nor any eval entry point are
// not analyzed at all (most files of a workspace). False positives only cost a parse; false negatives
// would hide findings, so the list is generous.
const MARKERS =
  /@statelyai\/agent|\bxstate\b|createMachine|setupAgent|createTextLogic|createDecisionLogic|@falai\/agent|\bfalai\s*\(|\.flow\s*\(|\.fields\s*\(|\.agent\s*\(|runSeam|runAgent|simulateAgent|explorePaths|canReach|matchesTrajectory|executeAgentRequest|\.turn(?:Stream)?\s*\(/;

export function mentionsAgentLibrary(text: string): boolean {
  return MARKERS.test(text);
}
