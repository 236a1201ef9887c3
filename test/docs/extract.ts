/**
 * Writes every `ts runnable` block that is a test module (it imports vitest) to test/.docs/, where
 * test/docs/vitest.config.ts runs it: `npm run test:docs` runs this first.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blocksOf, docPages, ROOT } from "./blocks";

const scratch = join(ROOT, "test", ".docs");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
let count = 0;
for (const page of docPages()) {
  for (const block of blocksOf(page)) {
    if (!block.runnable || block.lang !== "ts" || !block.code.includes('from "vitest"')) continue;
    const header = `// Extracted from ${page}:${block.line} by test/docs/extract.ts: edit the page, not this file.\n`;
    writeFileSync(join(scratch, `${page.replaceAll("/", "_").replace(/\.md$/, "")}-${block.line}.test.ts`), header + block.code);
    count++;
  }
}
console.log(`test:docs: ${count} test module(s) extracted from the docs`);
