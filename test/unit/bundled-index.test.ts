/**
 * The bundled scenarios' index (src/scenario/bundled.gen.ts, written by `npm run generate`): each document's name and
 * version are what the store would work out from it (`name`, or `id` in the TestLLM format; the content hash an upload
 * of the same document gets), so a start reads them instead of hashing every document.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLED } from "../../src/scenario/bundled.gen";
import { bundledScenarios, versionOf } from "../../src/scenario/store";

const dir = new URL("../../scenarios/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("the bundled scenarios' index", () => {
  it("holds every scenarios/*.json, each with its own name and content hash", async () => {
    expect(BUNDLED).toHaveLength(files.length);
    const fromFiles = await Promise.all(
      files.map(async (f) => {
        const raw = JSON.parse(readFileSync(new URL(f, dir), "utf8")) as { name?: string; id?: string };
        return { name: raw.name ?? raw.id, version: await versionOf(raw) };
      }),
    );
    const indexed = BUNDLED.map(({ name, version }) => ({ name, version }));
    expect(indexed.toSorted((a, b) => a.name.localeCompare(b.name))).toEqual(fromFiles.toSorted((a, b) => a.name!.localeCompare(b.name!)));
    for (const entry of BUNDLED) expect(await versionOf(entry.raw)).toBe(entry.version);
  });

  it("is what the store serves: the same names and versions, the documents parsed on first use", async () => {
    const stored = await bundledScenarios();
    expect([...stored.values()].map((s) => [s.name, s.version, s.source])).toEqual(BUNDLED.map((b) => [b.name, b.version, "bundled"]));
    const weather = stored.get("weather-agent");
    expect(weather?.scenario.name).toBe("weather-agent");
  });
});
