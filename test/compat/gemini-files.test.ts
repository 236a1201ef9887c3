/**
 * Gemini's Files API through the clients that call it: `@google/genai`'s `ai.files` (the resumable upload in one
 * chunk and in two, get, list, delete) and the `ai` SDK's `uploadFile` with `@ai-sdk/google` (which sends the bytes
 * without credentials); a generateContent `fileData` naming an uploaded file is answered, one naming a deleted file
 * gets the API's 403.
 */
import { createHash } from "node:crypto";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createPartFromUri, GoogleGenAI } from "@google/genai";
import { uploadFile } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "gemini-2.5-flash";
const SCENARIOS = [{ name: "gf-read", steps: [{ consume: false, match: { lastUserMessage: { contains: "Summarise" } }, respond: { text: "A greeting." } }] }];

const genai = (session: string) => new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}/s/gf-read/${session}` } });
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("base64");

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("@google/genai ai.files", () => {
  it("upload, get, list, use in generateContent, delete; then get and generateContent answer the API's 403", async () => {
    const ai = genai("s1");
    const file = await ai.files.upload({ file: new Blob(["hello world"], { type: "text/plain" }), config: { displayName: "greeting" } });
    const id = file.name!.slice("files/".length);
    expect(file).toMatchObject({ displayName: "greeting", mimeType: "text/plain", sizeBytes: "11", state: "ACTIVE", source: "UPLOADED", sha256Hash: sha256("hello world") });
    expect(file.name).toMatch(/^files\/[a-z0-9]{12}$/);
    // `@google/genai` 3 calls the API's `v1` unless told otherwise.
    expect(file.uri).toBe(`${h.url}/s/gf-read/s1/v1/files/${id}`);
    expect(Date.parse(file.expirationTime!) - Date.parse(file.createTime!)).toBe(48 * 3600 * 1000);

    expect(await ai.files.get({ name: file.name! })).toEqual(file);
    const listed: string[] = [];
    for await (const f of await ai.files.list({ config: { pageSize: 1 } })) listed.push(f.name!);
    expect(listed).toContain(file.name);

    const res = await ai.models.generateContent({ model: MODEL, contents: [{ role: "user", parts: [createPartFromUri(file.uri!, file.mimeType!), { text: "Summarise this." }] }] });
    expect(res.text).toBe("A greeting.");

    await ai.files.delete({ name: file.name! });
    await expect(ai.files.get({ name: file.name! })).rejects.toMatchObject({ status: 403 });
    const refused = await fetch(`${h.url}/s/gf-read/s1/v1beta/models/${MODEL}:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": "k" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ fileData: { fileUri: file.uri, mimeType: "text/plain" } }, { text: "Summarise this." }] }] }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: 403, message: `You do not have permission to access the File ${id} or it may not exist.`, status: "PERMISSION_DENIED" } });
    expect((await h.journal("gf-read", "s1")).map((e) => e.outcome)).toEqual(["response"]);
  });

  it("a file past the SDK's 8 MiB chunk goes in two chunks and arrives whole; a chosen name is kept, and taken twice is 409", async () => {
    const ai = genai("s2");
    const bytes = new Uint8Array(9 * 1024 * 1024).map((_, i) => i % 251);
    const file = await ai.files.upload({ file: new Blob([bytes], { type: "application/octet-stream" }), config: { name: "big-one" } });
    expect(file).toMatchObject({ name: "files/big-one", sizeBytes: String(bytes.length), sha256Hash: sha256(bytes) });
    await expect(ai.files.upload({ file: new Blob(["x"], { type: "text/plain" }), config: { name: "big-one" } })).rejects.toThrow(/409|already exists/);
    await ai.files.delete({ name: "files/big-one" });
  });
});

describe("an interaction naming a file", () => {
  it("a content block's uri of an uploaded file is answered; of an unknown one, the Files API's 403", async () => {
    const ai = genai("s3");
    const file = await ai.files.upload({ file: new Blob(["%PDF-1.4"], { type: "application/pdf" }) });
    const ask = (uri: string) =>
      ai.interactions.create({
        model: MODEL,
        input: [
          { type: "document", uri, mime_type: "application/pdf" },
          { type: "text", text: "Summarise this." },
        ],
      } as never);
    expect((await ask(file.uri!)).output_text).toBe("A greeting.");
    await expect(ask("files/nosuchfile")).rejects.toMatchObject({ status: 403 });
    expect((await h.journal("gf-read", "s3")).map((e) => [e.endpoint, e.outcome])).toEqual([["interactions", "response"]]);
  });
});

describe("ai uploadFile with @ai-sdk/google", () => {
  it("uploads through the upload URL it is given (no credentials on the bytes), and the file is there", async () => {
    const google = createGoogleGenerativeAI({ apiKey: "k", baseURL: `${h.url}/v1beta` });
    const result = await uploadFile({ api: google, data: new TextEncoder().encode("%PDF-1.4 mock"), mediaType: "application/pdf" });
    expect(result).toMatchObject({ mediaType: "application/pdf", providerMetadata: { google: { sizeBytes: "13", state: "ACTIVE" } } });
    const id = /\/v1beta\/files\/([a-z0-9]{12})$/.exec((result.providerReference as { google: string }).google)?.[1];
    expect(id).toBeDefined();
    const got = await fetch(`${h.url}/v1beta/files/${id}`, { headers: { "x-goog-api-key": "k" } });
    expect(await got.json()).toMatchObject({ name: `files/${id}`, mimeType: "application/pdf", sizeBytes: "13" });
  });

  it("answers what is not an upload in Google's shape: an unknown protocol, a bad upload id, a bad name", async () => {
    const post = (path: string, headers: Record<string, string>, body = "{}") =>
      fetch(`${h.url}${path}`, { method: "POST", headers: { "x-goog-api-key": "k", "content-type": "application/json", ...headers }, body });
    const multipart = await post("/upload/v1beta/files", { "x-goog-upload-protocol": "multipart" });
    expect([multipart.status, ((await multipart.json()) as { error: { status: string } }).error.status]).toEqual([400, "INVALID_ARGUMENT"]);
    const badId = await post("/upload/v1beta/files?upload_id=!!", { "x-goog-upload-command": "upload, finalize" }, "bytes");
    expect(((await badId.json()) as { error: { message: string } }).error.message).toBe("Invalid upload_id: start the upload again.");
    const badName = await post("/upload/v1beta/files", { "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start" }, JSON.stringify({ file: { name: "Bad_Name" } }));
    expect(badName.status).toBe(400);
    // A chunk before the last that is not a whole number of 256 KiB is refused (Google's rule; it bounds the chunks).
    const started = await post("/upload/v1beta/files", { "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start", "x-goog-upload-header-content-length": "20" });
    const uploadUrl = started.headers.get("x-goog-upload-url")!;
    const small = await fetch(uploadUrl, { method: "POST", headers: { "x-goog-upload-command": "upload", "x-goog-upload-offset": "0" }, body: "0123456789" });
    expect([small.status, ((await small.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      "A chunk before the last must be a non-zero multiple of 262144 bytes; this one is 10.",
    ]);
  });
});

describe("namespaces", () => {
  const admin = () => rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);

  it("a file is its team's: another key gets the 403, the upload URL keeps the key for a client that sends the bytes bare", async () => {
    const keyA = await namespaceKey(admin(), "gfiles-a");
    const keyB = await namespaceKey(admin(), "gfiles-b");
    // `@ai-sdk/google` posts the bytes to the upload URL with no key: the file must still land in team A's store.
    const result = await uploadFile({ api: createGoogleGenerativeAI({ apiKey: keyA, baseURL: `${h.url}/v1beta` }), data: new TextEncoder().encode("team a"), mediaType: "text/plain" });
    const uri = (result.providerReference as { google: string }).google;
    const id = uri.slice(uri.lastIndexOf("/") + 1);
    const get = (key: string) => fetch(`${h.url}/v1beta/files/${id}`, { headers: { "x-goog-api-key": key } });
    expect((await get(keyA)).status).toBe(200);
    expect((await get(keyB)).status).toBe(403);
    expect((await get("anonymous")).status).toBe(403);
    const listB = await new GoogleGenAI({ apiKey: keyB, httpOptions: { baseUrl: h.url } }).files.list();
    expect(listB.page).toEqual([]);
  });

  it("uploads count toward the namespace's file quotas", async () => {
    const ai = new GoogleGenAI({ apiKey: await namespaceKey(admin(), "gfiles-q", "admin", { files: 1 }), httpOptions: { baseUrl: h.url } });
    await ai.files.upload({ file: new Blob(["one"], { type: "text/plain" }) });
    await expect(ai.files.upload({ file: new Blob(["two"], { type: "text/plain" }) })).rejects.toMatchObject({ status: 429 });
  });
});
