// mockllm's Node runtime from the source tree (tsx), no scenarios: the default responder. Prints its URL.
// MOCKLLM_BENCH_SCENARIOS: a JSON array of scenario documents to serve.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../src/hosts/node/server";

const dir = mkdtempSync(join(tmpdir(), "mockllm-bench-"));
for (const doc of JSON.parse(process.env.MOCKLLM_BENCH_SCENARIOS ?? "[]") as { name: string }[]) writeFileSync(join(dir, `${doc.name}.json`), JSON.stringify(doc));
const server = await startServer({ adminToken: "bench", scenarios: [dir], watch: false, vars: { DEFAULT_WORDS_PER_SECOND: "0" }, log: () => {} });
console.log(server.url);
process.on("SIGTERM", () => process.exit(0));
