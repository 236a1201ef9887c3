// A request's headers in process, as the Node runtime's HTTP/1 server handles them: node:http's request made from the
// raw list its parser gives (fresh strings each request, as off the socket), `req.headers` read (node:http reads it
// for every HTTP/1.1 request), and mockllm's header record primed from the raw list (src/http/headers.ts). node:http's
// own request class beside the runtime's (src/hosts/node/node-headers.ts); with `--before DIR`, another checkout's
// record as well (DIR/src/http/headers.ts, with node:http's class: what that build ran). Medians of interleaved rounds.
//   node_modules/.bin/node --import tsx bench/request-headers.ts [--before DIR] [--rounds 9] [--requests 100000]
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PlannedIncoming } from "../src/hosts/node/node-headers";
import { primeHeaderRecord } from "../src/http/headers";
import { SDK_RAW_HEADERS } from "../test/support/header-lists";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    rounds: { type: "string", default: "9" },
    requests: { type: "string", default: "100000" },
  },
});

type Prime = typeof primeHeaderRecord;
const before: Prime | undefined = values.before ? ((await import(pathToFileURL(resolve(values.before, "src/http/headers.ts")).href)) as { primeHeaderRecord: Prime }).primeHeaderRecord : undefined;

/** The raw lists: what the `openai` SDK sends (18 headers; the tests' list) and what the bench's JSON load sends. */
const LISTS: Record<string, readonly string[]> = {
  "openai SDK, 18 headers": SDK_RAW_HEADERS,
  "JSON turn, 4 headers": ["host", "127.0.0.1:8787", "authorization", "Bearer sk-1", "content-type", "application/json", "Content-Length", "70"],
};

/** A raw list of new strings, as node:http's parser makes one for each request. */
const fresh = (list: readonly string[]): string[] => list.map((s) => s.split("").join(""));

type Incoming = IncomingMessage & { _addHeaderLines(headers: string[], n: number): void };
const socket = new Socket();
const targets: { label: string; Class: typeof IncomingMessage; prime: Prime }[] = [
  ...(before ? [{ label: "before (node:http's class, DIR's record)", Class: IncomingMessage, prime: before }] : []),
  { label: "node:http's class, this record", Class: IncomingMessage, prime: primeHeaderRecord },
  { label: "the runtime's class, this record", Class: PlannedIncoming, prime: primeHeaderRecord },
];

const rounds = Number(values.rounds);
const requests = Number(values.requests);
for (const [name, list] of Object.entries(LISTS)) {
  const raws = Array.from({ length: 256 }, () => fresh(list));
  const times = targets.map(() => [] as number[]);
  for (let r = 0; r < rounds + 1; r++) {
    for (let t = 0; t < targets.length; t++) {
      const { Class, prime } = targets[(t + r) % targets.length]!;
      const start = process.hrtime.bigint();
      for (let i = 0; i < requests; i++) {
        const raw = raws[i & 255]!;
        const req = new Class(socket) as Incoming;
        req._addHeaderLines(raw, raw.length);
        if (req.headers.expect !== undefined) throw new Error("unexpected expect header");
        prime({} as Headers, req.rawHeaders);
      }
      // The first round warms every target up and is not counted.
      if (r > 0) times[(t + r) % targets.length]!.push(Number(process.hrtime.bigint() - start) / requests / 1000);
    }
  }
  console.log(name);
  for (let t = 0; t < targets.length; t++) {
    const sorted = times[t]!.sort((a, b) => a - b);
    console.log(`  ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2).padStart(6)} µs a request  ${targets[t]!.label}`);
  }
}
