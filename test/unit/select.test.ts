// Scenario selection by name (contract section 2, rules 1 and 2): the selection itself when the store has the
// scenario at hand, a promise only where the store must wait; the same answers either way.
import { describe, expect, it } from "vitest";
import { NodeScenarioStore } from "../../src/hosts/node/scenarios";
import type { CanonicalRequest } from "../../src/canonical/request";
import { ScenarioSchema } from "../../src/scenario/schema";
import { selectScenario } from "../../src/turn/select";
import { isThenable } from "../../src/util/awaitable";

const request = { provider: "openai", endpoint: "chat.completions", model: "m", stream: false, messages: [{ role: "user", content: "hi" }] } as unknown as CanonicalRequest;
const none = new Headers();

async function storeWith(...names: string[]): Promise<NodeScenarioStore> {
  const store = new NodeScenarioStore();
  await store.init();
  for (const name of names) {
    const raw = { name, steps: [{ respond: { text: "hi" } }] };
    await store.put(raw, ScenarioSchema.parse(raw), `v-${name}`);
  }
  return store;
}

describe("selectScenario by name", () => {
  it("answers a scenario the store holds at once, with the session named or the default", async () => {
    const store = await storeWith("weather");
    const prefixed = selectScenario(store, { scenario: "weather", session: "run-1" }, none, request);
    expect(isThenable(prefixed)).toBe(false);
    expect(prefixed).toMatchObject({ kind: "scenario", session: "run-1", rule: 1, stored: { name: "weather", version: "v-weather" } });
    expect(selectScenario(store, { scenario: "weather" }, none, request)).toMatchObject({ kind: "scenario", session: "default", rule: 1 });
  });

  it("a name not found waits for the names and says which one was meant", async () => {
    const store = await storeWith("weather");
    const missing = selectScenario(store, { scenario: "wether" }, none, request);
    expect(isThenable(missing)).toBe(true);
    const selection = await missing;
    expect(selection.kind).toBe("error");
    if (selection.kind !== "error") return;
    expect(selection.error.code).toBe("not_found");
    expect(selection.error.message).toBe('mockllm: scenario "wether" not found; did you mean "weather"?');
  });

  it("refuses a bad scenario or session name at once, before any lookup", async () => {
    const store = await storeWith("weather");
    const badScenario = selectScenario(store, { scenario: "no spaces" }, none, request);
    expect(isThenable(badScenario)).toBe(false);
    expect(badScenario).toMatchObject({ kind: "error", error: { code: "invalid_request" } });
    expect(selectScenario(store, { scenario: "weather", session: "v1" }, none, request)).toMatchObject({
      kind: "error",
      error: { message: 'mockllm: session name "v1" is reserved (v1, v1beta, api)' },
    });
  });

  it("a store not loaded yet is waited for, with the same answer", async () => {
    const store = new NodeScenarioStore();
    const raw = { name: "weather", steps: [{ respond: { text: "hi" } }] };
    await store.put(raw, ScenarioSchema.parse(raw), "v-weather");
    const selecting = selectScenario(store, { scenario: "weather", session: "s2" }, none, request);
    expect(isThenable(selecting)).toBe(true);
    expect(await selecting).toMatchObject({ kind: "scenario", session: "s2", rule: 1, stored: { name: "weather" } });
  });

  it("rule 2, the x-mock-scenario header, answers the same scenario", async () => {
    const store = await storeWith("weather");
    const selection = await selectScenario(store, {}, new Headers({ "x-mock-scenario": "weather" }), request);
    expect(selection).toMatchObject({ kind: "scenario", session: "default", rule: 2, stored: { name: "weather" } });
  });
});
