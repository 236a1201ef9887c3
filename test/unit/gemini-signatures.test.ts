import { describe, expect, it } from "vitest";
import { geminiGenerateContent } from "../../src/providers/gemini";
import { resolveSurface } from "../../src/providers/surface";
import { signsThoughts, thoughtSignatureFor, validateThoughtSignatures } from "../../src/providers/gemini/signatures";
import type { Content, GeminiWire } from "../../src/providers/gemini/wire";
import { ScenarioSchema } from "../../src/scenario/schema";
import { req } from "./fixtures";

const call = (name: string, thoughtSignature?: string) => ({ functionCall: { name, args: {} }, ...(thoughtSignature !== undefined ? { thoughtSignature } : {}) });
const result = (name: string) => ({ functionResponse: { name, response: { output: "ok" } } });
const user = (text: string): Content => ({ role: "user", parts: [{ text }] });

function check(contents: Content[], model = "gemini-3-pro-preview", endpoint: "generateContent" | "bidiGenerateContent" = "generateContent", strict?: boolean) {
  const wire: GeminiWire = { body: { contents }, model, method: "generateContent", sse: false };
  const scenario = strict === undefined ? undefined : ScenarioSchema.parse({ name: "s", strict, steps: [{ respond: { text: "x" } }] });
  // `strict: false` skips the surface's whole `validate` (src/providers/surface.ts), as a turn does.
  const request = req({ provider: "gemini", endpoint, model }, []);
  return (scenario ? resolveSurface(geminiGenerateContent).validate(wire, request, scenario) : validateThoughtSignatures(wire, request))?.message;
}

describe("Gemini 3 thought signatures", () => {
  it("knows Gemini 3 models by name, with or without models/", () => {
    expect(["gemini-3-pro-preview", "models/gemini-3-flash-preview", "gemini-3.1-pro", "gemini-3"].map(signsThoughts)).toEqual([true, true, true, true]);
    expect(["gemini-2.5-flash", "gemini-30", "tunedModels/gemini-3-x", "gemma-3-27b"].map(signsThoughts)).toEqual([false, false, false, false]);
  });

  it("derives a 92-character base64 signature from the seed", () => {
    expect(thoughtSignatureFor("a/b/c/1")).toBe(thoughtSignatureFor("a/b/c/1"));
    expect(thoughtSignatureFor("a/b/c/1")).not.toBe(thoughtSignatureFor("a/b/c/2"));
    expect(thoughtSignatureFor("a/b/c/1")).toMatch(/^CkI[0-9A-Za-z]{89}$/);
  });

  it("checks the first call of each step in the current turn: a run of model contents is one step", () => {
    const steps: Content[] = [
      user("go"),
      { role: "model", parts: [{ text: "Checking." }] },
      { role: "model", parts: [call("a", "sig")] },
      { role: "model", parts: [call("b")] },
      { role: "user", parts: [result("a"), result("b")] },
      { role: "model", parts: [call("c")] },
      { role: "user", parts: [result("c")] },
    ];
    expect(check(steps)).toContain("function call `default_api:c` , position 6.");
    steps[5] = { role: "model", parts: [call("c", "skip_thought_signature_validator"), call("d")] };
    expect(check(steps)).toBeUndefined();
  });

  it("an empty signature is a missing one; earlier turns, other models, Gemini 3 image models, Live and strict: false are not checked", () => {
    const contents: Content[] = [user("go"), { role: "model", parts: [call("a", "")] }, { role: "user", parts: [result("a")] }];
    expect(check(contents)).toContain("function call `default_api:a` , position 2.");
    expect(check([...contents, { role: "model", parts: [{ text: "done" }] }, user("again")])).toBeUndefined();
    expect(check(contents, "gemini-2.5-flash")).toBeUndefined();
    expect(check(contents, "gemini-3-pro-image-preview")).toBeUndefined();
    expect(check(contents, "gemini-3-pro-preview", "bidiGenerateContent")).toBeUndefined();
    expect(check(contents, "gemini-3-pro-preview", "generateContent", false)).toBeUndefined();
    expect(check(contents, "gemini-3-pro-preview", "generateContent", true)).toContain("missing a thought_signature");
  });
});
