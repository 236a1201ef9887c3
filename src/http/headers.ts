/** Request headers as a plain record, shared by every parser and the journal. */

const records = new WeakMap<Headers, Record<string, string>>();

/**
 * The headers as a `{ name: value }` record with lower-case names, worked out once per Headers object (iterating a
 * Headers object sorts and joins its entries: every parser and the journal need the record, none needs it twice).
 * @example headerRecord(new Headers({ "X-Api-Key": "k" })) // { "x-api-key": "k" }
 */
export function headerRecord(headers: Headers): Record<string, string> {
  let out = records.get(headers);
  if (!out) {
    out = {};
    for (const [k, v] of headers) out[k.toLowerCase()] = v;
    records.set(headers, out);
  }
  return out;
}
