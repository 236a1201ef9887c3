/**
 * What the garbage suites (test/integration/*garbage*.test.ts) share: bodies that are no request of any surface, the
 * body one byte over the 10 MiB limit, and a response read as status, text and JSON when it is JSON.
 */

/** Bodies that are not a JSON object at all, or an empty one: no surface's request. */
export const NOT_A_REQUEST: string[] = ["", "{", "null", "[]", "42", '"str"', "{}", "\u0000\u0001binary"];

/** One byte over the 10 MiB an HTTP body may have (413 on every surface). */
export const OVER_BODY_LIMIT = " ".repeat(10 * 1024 * 1024 + 1);

export interface Answer {
  status: number;
  /** The body parsed, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

/** Reads `res` whole. */
export async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text), text };
  } catch {
    return { status: res.status, json: undefined, text };
  }
}
