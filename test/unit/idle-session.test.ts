// What an idle Node session holds (docs/performance.md, Scale): members on the prototype, no per-session closures,
// and a Responses store that makes its maps only when something is stored — with the same answers as before.
import { describe, expect, it } from "vitest";
import { wireToolCallIds } from "../../src/providers/registry";
import { emptySessionData, MemoryResponsesStorage, MemorySessionStorage } from "../../src/hosts/node/memory";
import { MemoryMcpStorage } from "../../src/hosts/node/memory-mcp";
import { MemoryRecordingStorage } from "../../src/hosts/node/memory-recording";
import { NodeSessionStore } from "../../src/hosts/node/sessions";
import { SessionHost, sessionHost } from "../../src/session/host";
import { MEMBERS } from "../../src/session/members";

const record = (id: string, previousId: string | null = null) => ({ id, previousId, input: `in ${id}`, items: [{ id: `${id}_item`, json: `{"id":"${id}_item"}` }], response: `{"id":"${id}"}` });

describe("an idle session", () => {
  it("is a SessionHost whose own properties hold no function", () => {
    const data = emptySessionData();
    const host = sessionHost(
      { session: new MemorySessionStorage(data), responses: new MemoryResponsesStorage(data), recording: new MemoryRecordingStorage(data), mcp: new MemoryMcpStorage(data) },
      wireToolCallIds,
    );
    expect(host).toBeInstanceOf(SessionHost);
    expect(Object.values(host).filter((v) => typeof v === "function")).toEqual([]);
    for (const member of Object.keys(MEMBERS)) expect(typeof Reflect.get(host, member)).toBe("function");
  });

  it("a Node session shares its methods with every other (one prototype), and answers as a session", () => {
    const store = new NodeSessionStore();
    const a = store.get("sc/a");
    const b = store.get("sc/b");
    a.noteMember("x");
    b.noteMember("y");
    const [ha, hb] = [store.get("sc/a"), store.get("sc/b")];
    expect(Object.getPrototypeOf(ha)).toBe(Object.getPrototypeOf(hb));
    expect(ha.next).toBe(hb.next);
    expect((ha.members() as { key: string }[]).map((m) => m.key)).toEqual(["x"]);
  });

  it("a Responses store that stored nothing answers empty and dumps as before; storing makes it answer", () => {
    const s = new MemoryResponsesStorage({ responses: [], pointers: [] });
    expect(s.load("resp_1")).toBeNull();
    expect(s.history("resp_1")).toEqual({ segments: [], missing: "resp_1" });
    expect(s.items(["x"])).toEqual({});
    expect(s.listObjects("conversation")).toEqual([]);
    expect(s.getObject("conversation", "c")).toBeNull();
    expect(s.pointer("resp_1", 0)).toBeNull();
    expect(s.delete("resp_1")).toBe(false);
    expect(s.deleteObject("conversation", "c")).toBe(false);
    expect(s.dump()).toEqual({ responses: [], pointers: [] });
    s.save(record("resp_1"), 5);
    s.save(record("resp_2", "resp_1"), 6);
    expect(s.load("resp_2")).toBe('{"id":"resp_2"}');
    expect(s.history("resp_2")).toEqual({
      segments: [
        { input: "in resp_1", output: ['{"id":"resp_1_item"}'] },
        { input: "in resp_2", output: ['{"id":"resp_2_item"}'] },
      ],
      missing: null,
    });
    expect(s.items(["resp_1_item"])).toEqual({ resp_1_item: '{"id":"resp_1_item"}' });
    const restored = new MemoryResponsesStorage(s.dump());
    expect(restored.load("resp_1")).toBe('{"id":"resp_1"}');
    expect(restored.dump()).toEqual(s.dump());
  });
});
