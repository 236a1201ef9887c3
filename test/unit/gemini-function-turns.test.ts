/**
 * Gemini's function-turn rule (src/providers/gemini/function-turns.ts): each sentence as the API answers it (sources
 * in docs/providers/fidelity.md, "Gemini: function turns out of order").
 */
import { describe, expect, it } from "vitest";
import { functionTurnsError } from "../../src/providers/gemini/function-turns";
import type { Content } from "../../src/providers/gemini/wire";
import { req } from "./fixtures";

const user = (text: string): Content => ({ role: "user", parts: [{ text }] });
const calls = (...names: string[]): Content => ({ role: "model", parts: names.map((name) => ({ functionCall: { name, args: {} } })) });
const responses = (...names: string[]): Content => ({ role: "user", parts: names.map((name) => ({ functionResponse: { name, response: { output: "ok" } } })) });
const check = (contents: Content[], endpoint: "generateContent" | "bidiGenerateContent" = "generateContent") =>
  functionTurnsError(contents, req({ provider: "gemini", endpoint, model: "gemini-2.5-flash" }, []))?.message;

describe("functionTurnsError", () => {
  it("a response with no call turn before it (a history trimmed between them: gemini-cli PR #27389)", () => {
    expect(check([responses("read_file"), user("go on")])).toBe("Please ensure that function response turn comes immediately after a function call turn.");
    expect(check([user("x"), { role: "model", parts: [{ text: "Done." }] }, responses("read_file")])).toBe("Please ensure that function response turn comes immediately after a function call turn.");
  });

  it("fewer responses than parallel calls (google-gemini/gemini-cli#3814, #16543, 2026-01)", () => {
    expect(check([user("x"), calls("a", "b"), responses("a")])).toBe(
      "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    );
  });

  it("a call turn first (a history that starts inside a tool round)", () => {
    expect(check([calls("a"), responses("a")])).toBe("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
  });

  it("a chat's streamed chunks (one content each) are one turn; parallel calls answered together; Live is not checked", () => {
    const chunked: Content[] = [user("x"), { role: "model", parts: [{ text: "Let me look." }] }, calls("a"), calls("b"), responses("a", "b"), { role: "model", parts: [{ text: "ok" }] }];
    expect(check(chunked)).toBeUndefined();
    expect(check([user("x"), calls("a", "b"), responses("b"), responses("a")])).toBeUndefined();
    expect(check([responses("a")], "bidiGenerateContent")).toBeUndefined();
  });
});
