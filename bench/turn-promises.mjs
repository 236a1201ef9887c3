#!/usr/bin/env node
// Promises the Node runtime makes a request, and where (issue 59 part 2): the built server (dist/node, or `--dist`
// another build's) runs in this process under V8's promise hook while a child process sends it the JSON turn (or the
// SDK conversation's two requests) one at a time; prints the promises made per request and, with `--where`, the
// frames that made them in one sample of requests. A count, not a time: it reads the same on a loaded machine, where
// the CPU rows cannot separate a change of a few promises (each one an allocation and a turn of the microtask queue).
//   node bench/turn-promises.mjs [--dist FILE] [--load json|sdk] [--requests 2000] [--where]
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { promiseHooks } from "node:v8";
import { JSON_BODY, JSON_HEADERS, paths, SCENARIOS } from "./workload.mjs";

const { values } = parseArgs({
  options: {
    dist: { type: "string" },
    load: { type: "string", default: "json" },
    requests: { type: "string", default: "2000" },
    where: { type: "boolean", default: false },
    // Internal: this script as the child that sends the requests.
    client: { type: "string" },
  },
});
const requests = Number(values.requests);

if (values.client !== undefined) {
  const { default: autocannon } = await import("autocannon");
  const { sdkReplay, sdkRequests } = await import("./sdk-conversations.mjs");
  const base = values.client;
  const options =
    values.load === "sdk"
      ? { ...sdkReplay(`${base}${paths("mockllm").toolsBase}`, await sdkRequests()), connections: 1, amount: requests }
      : {
          url: `${base}${paths("mockllm").json}`,
          method: "POST",
          headers: JSON_HEADERS,
          body: JSON_BODY,
          connections: 1,
          amount: requests,
        };
  const result = await autocannon(options);
  if (result.errors + result.non2xx > 0) throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx answers`);
  process.exit(0);
}

const dist = values.dist ? pathToFileURL(resolve(values.dist)).href : new URL("../dist/node/index.js", import.meta.url).href;
const { startServer } = await import(dist);
const dir = mkdtempSync(join(tmpdir(), "mockllm-promises-"));
for (const doc of SCENARIOS) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
const server = await startServer({ adminToken: "bench", scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
const send = () =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--client", server.url, "--load", values.load, "--requests", String(requests)], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`the client exited with ${code}`))));
  });

await send(); // warm: the first requests load what a turn needs
/** How many promises `--where` names the frames of: the first ones made, about a hundred requests' worth. */
const WHERE_SAMPLE = 2000;
let made = 0;
const frames = new Map();
Error.stackTraceLimit = 4;
const stop = promiseHooks.onInit(() => {
  made++;
  if (values.where && made <= WHERE_SAMPLE) {
    const at = (new Error().stack ?? "")
      .split("\n")
      .slice(2, 4)
      .map((l) => l.trim())
      .join(" < ");
    frames.set(at, (frames.get(at) ?? 0) + 1);
  }
});
await send();
stop();
console.log(`${values.load}: ${(made / requests).toFixed(1)} promises a request (${made} over ${requests} requests; ${values.dist ?? "dist/node"})`);
for (const [at, n] of [...frames].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(6)}  ${at}`);
await server.close?.();
process.exit(0);
