/** Reading a table by a key a client chose: its own entries only, never what `Object.prototype` holds. */

/**
 * `table[key]` when `key` is one of the table's own keys, else undefined: a client's `"toString"`, `"constructor"` or
 * `"__proto__"` names nothing, where `table[key]` would give the prototype's function or object.
 * @example own({ wav: "audio/wav" }, "constructor") // undefined; own({ wav: "audio/wav" }, "wav") // "audio/wav"
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
