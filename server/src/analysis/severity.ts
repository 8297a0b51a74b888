// Severity settings: "off" drops a code's findings, a severity replaces the default. Codes in
// OFF_BY_DEFAULT are dropped unless the user gave them a severity.
import type { SeverityOverrides } from "./api";
import { OFF_BY_DEFAULT, type Finding } from "./types";

export function applySeverity(findings: Finding[], overrides: SeverityOverrides = {}): Finding[] {
  const out: Finding[] = [];
  for (const finding of findings) {
    const setting = overrides[finding.code];
    if (setting === "off") continue;
    if (setting === undefined) {
      if (OFF_BY_DEFAULT.has(finding.code)) continue;
      out.push(finding);
    } else {
      out.push(setting === finding.severity ? finding : { ...finding, severity: setting });
    }
  }
  return out;
}
