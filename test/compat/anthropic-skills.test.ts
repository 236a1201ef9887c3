/**
 * Anthropic's Skills API through the official `@anthropic-ai/sdk` (`client.beta.skills`): a skill made from a folder's
 * files and from a zip, its versions (listed newest first, paged with `next_page`, downloaded as zips, deleted by id
 * or by epoch version), the first beta's shape beside the current one, the refusals of files the API refuses (the
 * folder and name rules), a skill with versions left not deleted, and OpenAI's `/v1/skills` left to OpenAI's client.
 */
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import OpenAI, { toFile as openaiFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeZip } from "../../src/util/zip";
import { unzipTexts } from "../support/zip";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: Anthropic;

const enc = new TextEncoder();
const SKILL_MD = "---\nname: csv-tools\ndescription: Clean and summarise CSV files.\n---\n# CSV tools\n\nRun scripts/clean.py.\n";
const SCRIPT = "import csv\nprint('clean')\n";
const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof Anthropic.APIError>) => [e.status, (e.error as { error: { type: string; message: string } }).error.type, (e.error as { error: { message: string } }).error.message],
  );

const files = (entries: [string, string][]) => Promise.all(entries.map(([name, text]) => toFile(enc.encode(text), name)));

beforeAll(async () => {
  h = await startHarness();
  client = new Anthropic({ apiKey: "sk-ant-test", baseURL: h.url, maxRetries: 0 });
});
afterAll(() => h?.stop());

describe("anthropic skills", () => {
  it("a folder's files make a skill; versions keep its name; the newest is latest; each downloads as a zip", async () => {
    const skill = await client.beta.skills.create({
      display_name: "CSV tools",
      files: await files([
        ["csv-tools/SKILL.md", SKILL_MD],
        ["csv-tools/scripts/clean.py", SCRIPT],
      ]),
    });
    expect(skill.id).toMatch(/^skill_01[0-9A-Za-z]{24}$/);
    expect(skill).toMatchObject({ type: "skill", display_name: "CSV tools", source: "custom" });
    expect(skill.created_at).toMatch(ISO_MICROS);
    expect(skill.updated_at).toBe(skill.created_at);
    const [v1] = (await client.beta.skills.versions.list(skill.id)).data;
    expect(v1).toEqual({ id: skill.latest_version_id, type: "skill_version", created_at: skill.created_at, description: "Clean and summarise CSV files.", name: "csv-tools", skill_id: skill.id });
    expect(v1!.id).toMatch(/^skillver_01[0-9A-Za-z]{24}$/);
    expect(await unzipTexts(await client.beta.skills.versions.download(v1!.id, { skill_id: skill.id }))).toEqual({ "csv-tools/SKILL.md": SKILL_MD, "csv-tools/scripts/clean.py": SCRIPT });

    const md2 = SKILL_MD.replace("Clean and", "Tidy and");
    const v2 = await client.beta.skills.versions.create(skill.id, { files: await files([["csv-tools/SKILL.md", md2]]) });
    expect(v2).toMatchObject({ type: "skill_version", name: "csv-tools", description: "Tidy and summarise CSV files.", skill_id: skill.id });
    const now = await client.beta.skills.retrieve(skill.id);
    expect([now.latest_version_id, now.display_name, now.created_at]).toEqual([v2.id, "CSV tools", skill.created_at]);
    expect(now.updated_at > now.created_at).toBe(true);
    expect(await client.beta.skills.versions.retrieve(v1!.id, { skill_id: skill.id })).toEqual(v1);

    // A later upload must keep the skill's name.
    expect(await refusal(client.beta.skills.versions.create(skill.id, { files: await files([["other/SKILL.md", "---\nname: other\ndescription: x\n---\n"]]) }))).toEqual([
      400,
      "invalid_request_error",
      "The skill name 'other' in SKILL.md must match the skill's name 'csv-tools'.",
    ]);

    // Paged newest first by `next_page`, which the SDK follows.
    const v3 = await client.beta.skills.versions.create(skill.id, { files: await files([["csv-tools/SKILL.md", SKILL_MD]]) });
    const first = await client.beta.skills.versions.list(skill.id, { limit: 2 });
    expect([first.data.map((v) => v.id), first.hasNextPage()]).toEqual([[v3.id, v2.id], true]);
    const all: string[] = [];
    for await (const v of client.beta.skills.versions.list(skill.id, { limit: 1 })) all.push(v.id);
    expect(all).toEqual([v3.id, v2.id, v1!.id]);
    expect(await refusal(client.beta.skills.versions.list(skill.id, { page: "page_bm9wZQ==" }))).toEqual([400, "invalid_request_error", "page: Invalid page token."]);

    // Versions left: the skill is not deleted.
    expect(await refusal(client.beta.skills.delete(skill.id))).toEqual([400, "invalid_request_error", `Cannot delete skill ${skill.id}: it has versions. Delete all of its versions first.`]);
    expect(await client.beta.skills.versions.delete(v3.id, { skill_id: skill.id })).toEqual({ id: v3.id, type: "skill_version_deleted" });
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBe(v2.id);
    expect(await refusal(client.beta.skills.versions.retrieve(v3.id, { skill_id: skill.id }))).toEqual([404, "not_found_error", `Skill version not found: ${v3.id}`]);
    for (const v of [v2.id, v1!.id]) await client.beta.skills.versions.delete(v, { skill_id: skill.id });
    expect((await client.beta.skills.retrieve(skill.id)).latest_version_id).toBeNull();
    expect(await client.beta.skills.delete(skill.id)).toEqual({ id: skill.id, type: "skill_deleted" });
    expect(await refusal(client.beta.skills.retrieve(skill.id))).toEqual([404, "not_found_error", `Skill not found: ${skill.id}`]);
  });

  it("the first beta's requests get its shape: display_title, latest_version and versions by their epoch", async () => {
    const betas = ["skills-2025-10-02"];
    const zip = writeZip([
      { name: "pdf-forms/SKILL.md", bytes: enc.encode("---\nname: pdf-forms\ndescription: >\n  Read and fill\n  PDF forms.\n---\n") },
      { name: "pdf-forms/forms.md", bytes: enc.encode("# Forms") },
    ]);
    const form = new FormData();
    form.append("display_title", "PDF forms");
    form.append("files[]", new Blob([zip], { type: "application/zip" }), "pdf-forms.zip");
    const res = await fetch(`${h.url}/v1/skills?beta=true`, { method: "POST", headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "anthropic-beta": betas[0]! }, body: form });
    const made = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(made).sort()).toEqual(["created_at", "display_title", "id", "latest_version", "source", "type", "updated_at"]);
    expect(made).toMatchObject({ type: "skill", display_title: "PDF forms", source: "custom" });
    const epoch = made.latest_version as string;
    expect(epoch).toMatch(/^\d{16}$/);
    const v = (await client.beta.skills.versions.retrieve(epoch, { skill_id: made.id as string, betas })) as unknown as Record<string, unknown>;
    expect(v).toMatchObject({ type: "skill_version", version: epoch, directory: "pdf-forms", name: "pdf-forms", description: "Read and fill PDF forms." });
    expect(v.created_at).toBe(made.created_at);
    expect(Object.keys(await unzipTexts(await client.beta.skills.versions.download(epoch, { skill_id: made.id as string, betas })))).toEqual(["pdf-forms/SKILL.md", "pdf-forms/forms.md"]);
    expect(await client.beta.skills.versions.delete(epoch, { skill_id: made.id as string, betas })).toEqual({ id: epoch, type: "skill_version_deleted" });
    // A skill with no display name shows its SKILL.md name.
    const plain = await client.beta.skills.create({ files: await files([["pdf-forms/SKILL.md", "---\nname: pdf-forms\ndescription: Fill forms.\n---\n"]]) });
    expect(plain.display_name).toBe("pdf-forms");
    const listed = await client.beta.skills.list({ limit: 100 });
    expect(listed.data[0]!.id).toBe(plain.id);
    expect((await client.beta.skills.list({ source: "anthropic" })).data).toEqual([]);
  });

  it("files the API refuses are a 400 saying why, and nothing is kept", async () => {
    const before = (await client.beta.skills.list({ limit: 100 })).data.length;
    const make = async (entries: [string, string][]) => refusal(client.beta.skills.create({ files: await files(entries) }));
    const md = (name: string, description = "Does things.") => `---\nname: ${name}\ndescription: ${description}\n---\n`;
    expect(await make([["SKILL.md", md("tool")]])).toEqual([400, "invalid_request_error", "SKILL.md file must be exactly in the top-level folder."]);
    expect(await make([["skills/SKILL.md", md("tool")]])).toEqual([400, "invalid_request_error", "The folder name 'skills' must match the skill name 'tool' in SKILL.md."]);
    expect(await make([["a/tool/SKILL.md", md("tool")]])).toEqual([400, "invalid_request_error", "SKILL.md file must be in the top-level folder, not nested deeper. Currently at a/tool/SKILL.md"]);
    expect(await make([["Tool/SKILL.md", md("Tool")]])).toEqual([400, "invalid_request_error", "field 'name' in SKILL.md must contain only lowercase letters, numbers and hyphens, got 'Tool'."]);
    expect(await make([["claude-tool/SKILL.md", md("claude-tool")]])).toEqual([400, "invalid_request_error", "field 'name' in SKILL.md cannot contain the reserved words 'anthropic' or 'claude'."]);
    expect(await make([["tool/SKILL.md", md("tool", "Use <b>this</b>.")]])).toEqual([400, "invalid_request_error", "field 'description' in SKILL.md cannot contain XML tags."]);
    expect(await make([["tool/readme.md", "x"]])).toEqual([400, "invalid_request_error", "A skill must contain a SKILL.md file."]);
    expect(
      await make([
        ["tool/SKILL.md", md("tool")],
        ["other/x.md", "x"],
      ]),
    ).toEqual([400, "invalid_request_error", "Every file must be in SKILL.md's directory ('tool'), 'other/x.md' is not."]);
    expect(await refusal(client.beta.skills.create({ files: await files([["tool/SKILL.md", md("tool")]]), display_name: "x".repeat(256) }))).toEqual([
      400,
      "invalid_request_error",
      "display_name: must be a single line of at most 255 characters",
    ]);
    expect((await client.beta.skills.list({ limit: 100 })).data.length).toBe(before);
  });

  it("a message's container.skills load the caller's skills (versions resolved) and Anthropic's; a bad one uses no step", async () => {
    await h.upload({ name: "skills-turns", steps: [{ respond: { text: "Deck ready." } }, { respond: { text: "Second turn." } }, { respond: { text: "Streamed." } }] });
    const c = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/skills-turns/run`, maxRetries: 0 });
    const skill = await client.beta.skills.create({ files: await files([["deck-style/SKILL.md", "---\nname: deck-style\ndescription: House deck style.\n---\n"]]) });
    const v2 = await client.beta.skills.versions.create(skill.id, { files: await files([["deck-style/SKILL.md", "---\nname: deck-style\ndescription: Newer style.\n---\n"]]) });
    const ask = (skills: unknown[], container: Record<string, unknown> = {}) =>
      c.beta.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        betas: ["code-execution-2025-08-25"],
        tools: [{ type: "code_execution_20250825", name: "code_execution" }],
        container: { ...container, skills } as never,
        messages: [{ role: "user", content: "Make a deck." }],
      });

    // Nothing is used by a request the skills refuse.
    expect(await refusal(ask([{ type: "custom", skill_id: "skill_01nope" }]))).toEqual([404, "not_found_error", "Skill not found: skill_01nope"]);
    expect(await refusal(ask([{ type: "custom", skill_id: skill.id, version: "123" }]))).toEqual([404, "not_found_error", "Skill version not found: 123"]);
    expect(await refusal(ask([{ type: "mine", skill_id: "x" }]))).toEqual([400, "invalid_request_error", "container.skills.0.type: Input should be 'anthropic' or 'custom'"]);
    const nine = Array.from({ length: 9 }, (_, i) => ({ type: "anthropic", skill_id: `s${i}` }));
    expect(await refusal(ask(nine))).toEqual([400, "invalid_request_error", "container.skills: List should have at most 8 items after validation, not 9"]);

    const first = await ask([
      { type: "anthropic", skill_id: "pptx", version: "latest" },
      { type: "custom", skill_id: skill.id },
    ]);
    expect(first.content).toEqual([{ type: "text", text: "Deck ready." }]);
    expect(first.container!.id).toMatch(/^container_011C/);
    expect(first.container!.skills).toEqual([
      { type: "anthropic", skill_id: "pptx", version: "latest" },
      { type: "custom", skill_id: skill.id, version: v2.id },
    ]);
    // The next turn reuses the container by id, a skill pinned to its first version.
    const [v1] = (await client.beta.skills.versions.list(skill.id)).data.slice(-1);
    const second = await ask([{ type: "custom", skill_id: skill.id, version: v1!.id }], { id: first.container!.id });
    expect([second.content, second.container]).toEqual([
      [{ type: "text", text: "Second turn." }],
      {
        id: first.container!.id,
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
        skills: [{ type: "custom", skill_id: skill.id, version: v1!.id }],
      },
    ]);
    expect(Date.parse(second.container!.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    // Streamed, the container comes in message_delta, which the SDK copies onto the final message.
    const streamed = await c.beta.messages
      .stream({
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        tools: [{ type: "code_execution_20250825", name: "code_execution" }],
        container: { skills: [{ type: "anthropic", skill_id: "xlsx" }] },
        messages: [{ role: "user", content: "A sheet." }],
      })
      .finalMessage();
    expect([streamed.content[0], streamed.container?.skills]).toEqual([{ type: "text", text: "Streamed." }, [{ type: "anthropic", skill_id: "xlsx", version: "latest" }]]);
    // A message that loads no skills shows no container.
    const plain = await new Anthropic({ apiKey: "sk-ant-test", baseURL: h.url, maxRetries: 0 }).messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect("container" in plain).toBe(false);
  });

  it("OpenAI's client on /v1/skills is OpenAI's route: the two stores are apart", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
    const theirs = await openai.skills.create({ files: [await openaiFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md")] });
    expect(theirs.object).toBe("skill");
    expect((await client.beta.skills.list({ limit: 100 })).data.some((s) => s.id === theirs.id)).toBe(false);
    expect(await refusal(client.beta.skills.retrieve(theirs.id))).toEqual([404, "not_found_error", `Skill not found: ${theirs.id}`]);
  });
});
