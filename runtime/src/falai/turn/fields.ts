// Writing the values a model call gave: each is checked against its field (type, enum) before it lands in data;
// a dropped value leaves a `collect / skipped` line with no run and the field's slug in `detail`.
import { coerceField } from "../coerce";
import type { TurnState } from "./state";

/** Writes `values` for the fields in `offered` (the ones the call asked for); anything else is not written. */
export function writeFields(s: TurnState, values: Record<string, unknown> | undefined, offered: ReadonlySet<string>): void {
  for (const [field, raw] of Object.entries(values ?? {})) {
    const def = s.engine.fields[field];
    if (!def) {
      if (raw !== null && raw !== undefined && raw !== "") s.looseLine("collect", "skipped", { code: "unknown-field", detail: field });
      continue;
    }
    if (!offered.has(field)) continue; // known fields are never re-extracted; `asked` ones come only from their step
    const c = coerceField(def, raw);
    if (c.ok === true) {
      s.session.data[field] = c.value;
      s.visited?.field(field);
    }
    else if (c.ok === false) s.looseLine("collect", "skipped", { code: c.code, detail: field });
  }
}
