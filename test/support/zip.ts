/** A downloaded zip (a skill's bundle) as its files' texts by path: what the skills suites compare. */
import { readZip } from "../../src/util/zip";

export async function unzipTexts(res: Response): Promise<Record<string, string>> {
  const read = await readZip(new Uint8Array(await res.arrayBuffer()), { maxEntries: 10, maxBytes: 1 << 20 });
  if (!read.ok) throw new Error(read.message);
  return Object.fromEntries(read.entries.map((e) => [e.name, new TextDecoder().decode(e.bytes)]));
}
