#!/usr/bin/env node
// What a freshly started Node runtime loads at its first requests (issue 34, the cold burst's peak): per start, a new
// process starts the built server (dist/node, as bench/servers/mockllm-node.mjs does), then sends one JSON Chat
// Completions turn and one stream over node:http from the same process (node:http's client loads no undici), and
// reads RSS before, after the JSON turn and after the stream, and whether Node's bundled undici got loaded
// (`process.moduleLoadList` names `internal/deps/undici/undici` once anything touched the global
// Response/Request/Headers/fetch). Each figure is the median over the starts.
//   node bench/first-request.mjs [--starts 5] [--baseline DIR]   (DIR: another checkout, DIR/dist/node/index.js)
//                                [--check]   (exit 1 when this build's server loaded undici)
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    starts: { type: "string", default: "5" },
    baseline: { type: "string" },
    check: { type: "boolean", default: false },
    child: { type: "string" },
  },
});

const MB = 1024 * 1024;

/** The child: one fresh server, two requests, the figures as one JSON line. */
async function child(dist) {
  // require, not import: an ESM import of node:http reads every export, and its WebSocket getters load undici.
  const { request } = createRequire(import.meta.url)("node:http");
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { SCENARIOS, JSON_BODY, JSON_HEADERS, paths } = await import("./workload.mjs");
  const { startServer } = await import(pathToFileURL(dist).href);
  const dir = mkdtempSync(join(tmpdir(), "mockllm-first-"));
  for (const doc of SCENARIOS) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
  const server = await startServer({ scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
  const post = (path, body) =>
    new Promise((ok, fail) => {
      const req = request(`${server.url}${path}`, { method: "POST", headers: JSON_HEADERS }, (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (d) => (text += d))
          .on("end", () => ok({ status: res.statusCode, text }));
      });
      req.on("error", fail).end(body);
    });
  const undici = () => process.moduleLoadList.some((m) => m.includes("undici"));
  const p = paths("mockllm");
  const rss0 = process.memoryUsage().rss;
  const undiciAtStart = undici();
  const json = await post(p.json, JSON_BODY);
  const rss1 = process.memoryUsage().rss;
  const stream = await post(p.stream, JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "x" }] }));
  const rss2 = process.memoryUsage().rss;
  if (json.status !== 200 || stream.status !== 200 || !stream.text.includes("[DONE]")) throw new Error(`unexpected answers ${json.status} ${stream.status}`);
  console.log(JSON.stringify({ rss0, rss1, rss2, undiciAtStart, undici: undici() }));
  await server.close();
}

function runStarts(label, dist) {
  const rows = [];
  for (let i = 0; i < Number(values.starts); i++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dist], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`);
    rows.push(JSON.parse(r.stdout.trim().split("\n").at(-1)));
  }
  const med = (f) => {
    const s = rows.map(f).sort((a, b) => a - b);
    return s[Math.floor((s.length - 1) / 2)];
  };
  const row = {
    label,
    rssAtStart: med((r) => r.rss0 / MB),
    afterJson: med((r) => (r.rss1 - r.rss0) / MB),
    afterStream: med((r) => (r.rss2 - r.rss0) / MB),
    undici: rows.every((r) => r.undici) ? "loaded" : rows.some((r) => r.undici) ? "sometimes" : "never",
  };
  console.log(
    `${label.padEnd(10)} RSS at start ${row.rssAtStart.toFixed(1)} MB, +${row.afterJson.toFixed(1)} MB after the first JSON turn, ` +
      `+${row.afterStream.toFixed(1)} MB after a stream; undici ${row.undici} (median of ${rows.length} starts)`,
  );
  return row;
}

if (values.child) await child(values.child);
else {
  const here = fileURLToPath(new URL("../dist/node/index.js", import.meta.url));
  if (values.baseline) runStarts("baseline", resolve(values.baseline, "dist/node/index.js"));
  const row = runStarts("this build", here);
  if (values.check && row.undici !== "never") process.exit(1);
}
