// What a user writes for the data an agent collects: fields (`falai().fields({...})`) and the parameters
// of actions (`with`), with the value types they infer. Names and shapes follow falai-dev/agent's v4
// reference; the rest of what a user writes is in definitions.ts.

export type ScalarType = "string" | "number" | "integer" | "boolean";

export interface ScalarDef<T extends ScalarType = ScalarType> {
  type: T;
  description?: string;
  enum?: readonly (string | number)[];
}

export interface FieldDef<T extends ScalarType = ScalarType> extends ScalarDef<T> {
  /** For people (editors, panels); never sent to the model. */
  label?: string;
  /** How the model should ask for it; a template. */
  ask?: string;
  /** Where a value may come from: any customer message, or only the reply to the step that asks it. */
  extract?: "anywhere" | "asked";
}

export type FieldDefs = Record<string, FieldDef>;

type ValueOf<F> = F extends { enum: readonly (infer E)[] }
  ? E
  : F extends { type: "string" }
    ? string
    : F extends { type: "number" | "integer" }
      ? number
      : F extends { type: "boolean" }
        ? boolean
        : never;

/** Every field's value type; the session stores `Partial<InferData<F>>`. */
export type InferData<F extends FieldDefs> = { readonly [K in keyof F]: ValueOf<F[K]> };
/** `DataOf<typeof f>`: the data type a toolkit (or anything with `fields`) collects. */
export type DataOf<T extends { fields: FieldDefs }> = InferData<T["fields"]>;

export type ParamDef =
  | (ScalarDef & { optional?: true })
  | { type: "array"; items: ScalarDef; description?: string; optional?: true };
export type ParamDefs = Record<string, ParamDef>;

type ParamValue<P> = P extends { type: "array"; items: infer I } ? ValueOf<I>[] : ValueOf<P>;
type RequiredKeys<P> = { [K in keyof P]: P[K] extends { optional: true } ? never : K }[keyof P];
type OptionalKeys<P> = { [K in keyof P]: P[K] extends { optional: true } ? K : never }[keyof P];
/** The `with` shape of an action, from its parameter definitions. */
export type InferParams<P extends ParamDefs> = { [K in RequiredKeys<P>]: ParamValue<P[K]> } & { [K in OptionalKeys<P>]?: ParamValue<P[K]> };
