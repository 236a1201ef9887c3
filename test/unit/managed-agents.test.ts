/**
 * The pure parts of Claude Managed Agents: the lists' page tokens (forward and back, the last page's `null`, a bad
 * token refused) and a session's history as Messages (roles merged, a tool use's result by its event id, an
 * interrupted use answered with an error).
 */
import { describe, expect, it } from "vitest";
import { historyMessages, INTERRUPTED, UNANSWERED, type SessionEvent } from "../../src/providers/anthropic/module/agents/loop";
import { createdWithin } from "../../src/providers/anthropic/module/agents/pages";
import { cursorPage as pageOf } from "../../src/providers/anthropic/pages";

const items = ["a", "b", "c", "d", "e"].map((id) => ({ id }));
const q = (params: Record<string, string>) => new URLSearchParams(params);
const ids = (page: ReturnType<typeof pageOf>) => ("data" in page ? page.data.map((x) => (x as { id: string }).id) : page);

describe("managed agents' pages", () => {
  it("go forward by next_page to a last page whose next_page is null, and back by prev_page", () => {
    const first = pageOf(items, q({ limit: "2" }), { defaultLimit: 20, max: 100 });
    expect(ids(first)).toStrictEqual(["a", "b"]);
    if (!("data" in first)) throw new Error("refused");
    expect(first.prev_page).toBeNull();
    const second = pageOf(items, q({ limit: "2", page: first.next_page! }), { defaultLimit: 20, max: 100 });
    if (!("data" in second)) throw new Error("refused");
    expect(ids(second)).toStrictEqual(["c", "d"]);
    const third = pageOf(items, q({ limit: "2", page: second.next_page! }), { defaultLimit: 20, max: 100 });
    if (!("data" in third)) throw new Error("refused");
    expect([ids(third), third.next_page]).toStrictEqual([["e"], null]);
    expect(ids(pageOf(items, q({ limit: "2", page: third.prev_page! }), { defaultLimit: 20, max: 100 }))).toStrictEqual(["c", "d"]);
    expect(ids(pageOf(items, q({}), { defaultLimit: 3, max: 100 }))).toStrictEqual(["a", "b", "c"]);
  });

  it("refuse a limit out of bounds and a token that names nothing here", () => {
    expect(pageOf(items, q({ limit: "0" }), { defaultLimit: 20, max: 100 })).toMatchObject({
      code: "invalid_request",
      message: "limit: Input should be less than or equal to 100 and greater than or equal to 1",
    });
    expect(pageOf(items, q({ page: "page_bm9wZQ" }), { defaultLimit: 20, max: 100 })).toMatchObject({ code: "invalid_request", message: "page: Invalid page token." });
    expect(pageOf(items, q({ page: "xyz" }), { defaultLimit: 20, max: 100 })).toMatchObject({ message: "page: Invalid page token." });
  });
});

describe("managed agents' created_at bounds", () => {
  const times = ["2026-12-01T00:00:00.000Z", "2026-12-02T00:00:00.000Z", "2026-12-03T00:00:00.000Z"].map((t) => ({ t }));
  const within = (params: Record<string, string>) => {
    const test = createdWithin<{ t: string }>(q(params), (o) => o.t);
    return typeof test === "function" ? times.filter(test).map((o) => o.t.slice(8, 10)) : test;
  };

  it("keep what each bound allows, together", () => {
    expect(within({})).toStrictEqual(["01", "02", "03"]);
    expect(within({ "created_at[gt]": "2026-12-01T00:00:00Z" })).toStrictEqual(["02", "03"]);
    expect(within({ "created_at[gte]": "2026-12-01T00:00:00Z", "created_at[lt]": "2026-12-03T00:00:00Z" })).toStrictEqual(["01", "02"]);
    expect(within({ "created_at[lte]": "2026-12-02T00:00:00.000Z" })).toStrictEqual(["01", "02"]);
  });

  it("refuse a time that does not parse", () => {
    expect(within({ "created_at[gt]": "yesterday" })).toMatchObject({ code: "invalid_request", message: "created_at[gt]: Input should be a valid datetime, not 'yesterday'" });
  });
});

describe("a session's history as Messages", () => {
  const ev = (id: string, type: string, fields: Record<string, unknown> = {}): SessionEvent => ({ id, type, processed_at: "t", ...fields });
  const say = (id: string, t: string) => ev(id, "user.message", { content: [{ type: "text", text: t }] });

  it("merges a role's turns, pairs a custom result with its use by event id, and leaves out status and span events", () => {
    expect(
      historyMessages([
        say("e1", "hi"),
        ev("e2", "session.status_running"),
        ev("e3", "agent.thinking"),
        ev("e4", "agent.message", { content: [{ type: "text", text: "Let me look." }] }),
        ev("e5", "agent.custom_tool_use", { name: "get_weather", input: { city: "Oslo" } }),
        ev("e6", "session.status_idle"),
        ev("e7", "user.custom_tool_result", { custom_tool_use_id: "e5", content: [{ type: "text", text: "-3°C" }] }),
        ev("e8", "agent.tool_use", { name: "bash", input: { command: "date" } }),
        ev("e9", "agent.tool_result", { tool_use_id: "e8", content: [], is_error: false }),
      ]),
    ).toStrictEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "e5", name: "get_weather", input: { city: "Oslo" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "e5", content: [{ type: "text", text: "-3°C" }] }] },
      { role: "assistant", content: [{ type: "tool_use", id: "e8", name: "bash", input: { command: "date" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "e8" }] },
    ]);
  });

  it("answers a use a failed turn left open before the next message", () => {
    const messages = historyMessages([say("e1", "go"), ev("e2", "agent.custom_tool_use", { name: "a", input: {} }), ev("e3", "session.error"), say("e4", "again")]);
    expect(messages.at(-1)).toStrictEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "e2", content: [{ type: "text", text: UNANSWERED }], is_error: true },
        { type: "text", text: "again" },
      ],
    });
  });

  it("answers the uses an interrupt left open with an error, once", () => {
    const messages = historyMessages([
      say("e1", "go"),
      ev("e2", "agent.custom_tool_use", { name: "a", input: {} }),
      ev("e3", "agent.custom_tool_use", { name: "b", input: {} }),
      ev("e4", "user.interrupt"),
      ev("e5", "user.interrupt"),
      say("e6", "stop"),
    ]);
    expect(messages.at(-1)).toStrictEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "e2", content: [{ type: "text", text: INTERRUPTED }], is_error: true },
        { type: "tool_result", tool_use_id: "e3", content: [{ type: "text", text: INTERRUPTED }], is_error: true },
        { type: "text", text: "stop" },
      ],
    });
  });
});
