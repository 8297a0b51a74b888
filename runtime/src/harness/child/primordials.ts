// The built-ins the harness child builds and writes its result frames with, taken when the child starts,
// before any library or user module loads. User code runs in the same process and may replace any global
// later (Buffer.from, JSON.stringify, fs.writeSync, Object.keys, a prototype's method, Object.prototype.toJSON):
// the channel uses only these copies, called through Reflect.apply, so such a patch changes nothing in a
// frame. (Node's own modules do the same with their "primordials".) Imported first, through ./channel.
import { writeSync } from "node:fs";
import { types } from "node:util";

const apply = Reflect.apply;
const { from, byteLength } = Buffer;
/** `fn` as a function taking its `this` first: a later change to the prototype does not reach it. */
const uncurry = <A extends unknown[], R>(fn: (...args: A) => R) => (self: unknown, ...args: A): R => apply(fn, self, args);

export const P = {
  apply,
  writeSync,
  stringify: JSON.stringify,
  bufferFrom: (text: string): Buffer => apply(from, Buffer, [text]) as Buffer,
  byteLength: (text: string): number => apply(byteLength, Buffer, [text]) as number,
  keys: Object.keys,
  create: Object.create,
  setPrototypeOf: Object.setPrototypeOf,
  getPrototypeOf: Object.getPrototypeOf,
  hasOwn: Object.prototype.hasOwnProperty,
  objectPrototype: Object.prototype,
  arrayPrototype: Array.prototype,
  isArray: Array.isArray,
  isFinite: Number.isFinite,
  stringSlice: uncurry(String.prototype.slice as (start?: number, end?: number) => string),
  stringIndexOf: uncurry(String.prototype.indexOf as (search: string, from?: number) => number),
  stringToLowerCase: uncurry(String.prototype.toLowerCase as () => string),
  bigintToString: uncurry(BigInt.prototype.toString as () => string),
  symbolToString: uncurry(Symbol.prototype.toString as () => string),
  dateIsValid: ((getTime, isNaN) => (d: Date): boolean => !isNaN(apply(getTime, d, []) as number))(Date.prototype.getTime, Number.isNaN),
  dateToIso: uncurry(Date.prototype.toISOString as () => string),
  mapEntries: uncurry(Map.prototype.entries as () => IterableIterator<[unknown, unknown]>),
  setValues: uncurry(Set.prototype.values as () => IterableIterator<unknown>),
  mapIteratorNext: uncurry(Object.getPrototypeOf(new Map().entries()).next as () => IteratorResult<[unknown, unknown]>),
  setIteratorNext: uncurry(Object.getPrototypeOf(new Set().values()).next as () => IteratorResult<unknown>),
  isDate: types.isDate,
  isMap: types.isMap,
  isSet: types.isSet,
  isNativeError: types.isNativeError,
  isView: ArrayBuffer.isView,
};
