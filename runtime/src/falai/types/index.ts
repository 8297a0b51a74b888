// The public types of `@falai/agent`.
export type * from "./definitions";
export type * from "./fields";
export type * from "./provider";
export type * from "./session";
export type * from "./turn";
