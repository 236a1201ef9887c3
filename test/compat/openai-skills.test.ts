/**
 * OpenAI skills through the official `openai` SDK (`client.skills`): a skill made from a directory's files and from a
 * zip, its versions (the default moved, a version's and the default's bundle downloaded and unpacked), the refusals
 * of files that make no skill, deletes, and the namespace's `fileBytes` quota counting the bundles.
 */
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeZip } from "../../src/util/zip";
import { unzipTexts } from "../support/zip";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;

const enc = new TextEncoder();
const SKILL_MD = "---\nname: csv-tools\ndescription: Clean and summarise CSV files.\n---\n# CSV tools\n\nRun scripts/clean.py.\n";
const SCRIPT = "import csv\nprint('clean')\n";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof OpenAI.APIError>) => [e.status, (e.error as { message: string }).message],
  );

beforeAll(async () => {
  h = await startHarness();
  client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
});
afterAll(() => h?.stop());

describe("openai skills", () => {
  it("a directory's files make a skill named by its SKILL.md; versions move the default; bundles download as zips", async () => {
    const skill = await client.skills.create({ files: [await toFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md"), await toFile(enc.encode(SCRIPT), "csv-tools/scripts/clean.py")] });
    expect(skill.id).toMatch(/^skill_[0-9a-f]{48}$/);
    expect(skill).toMatchObject({ object: "skill", name: "csv-tools", description: "Clean and summarise CSV files.", default_version: "1", latest_version: "1" });
    expect(await unzipTexts(await client.skills.content.retrieve(skill.id))).toEqual({ "csv-tools/SKILL.md": SKILL_MD, "csv-tools/scripts/clean.py": SCRIPT });

    const md2 = SKILL_MD.replace("Clean and", "Tidy and");
    const v2 = await client.skills.versions.create(skill.id, { files: [await toFile(enc.encode(md2), "csv-tools/SKILL.md")] });
    expect(v2).toMatchObject({ object: "skill.version", skill_id: skill.id, version: "2", name: "csv-tools", description: "Tidy and summarise CSV files." });
    // Not the default until asked: the skill still shows version 1's description.
    expect(await client.skills.retrieve(skill.id)).toMatchObject({ default_version: "1", latest_version: "2", description: "Clean and summarise CSV files." });
    const moved = await client.skills.update(skill.id, { default_version: "2" });
    expect(moved).toMatchObject({ default_version: "2", latest_version: "2", description: "Tidy and summarise CSV files." });
    expect(await unzipTexts(await client.skills.content.retrieve(skill.id))).toEqual({ "csv-tools/SKILL.md": md2 });
    expect(await unzipTexts(await client.skills.versions.content.retrieve("1", { skill_id: skill.id }))).toEqual({ "csv-tools/SKILL.md": SKILL_MD, "csv-tools/scripts/clean.py": SCRIPT });

    const v3 = await client.skills.versions.create(skill.id, { files: [await toFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md")], default: true });
    expect((await client.skills.retrieve(skill.id)).default_version).toBe(v3.version);
    expect((await client.skills.versions.list(skill.id)).data.map((v) => v.version)).toEqual(["3", "2", "1"]);
    expect((await client.skills.versions.list(skill.id, { order: "asc", limit: 2 })).data.map((v) => v.version)).toEqual(["1", "2"]);

    expect(await refusal(client.skills.versions.delete("3", { skill_id: skill.id }))).toEqual([
      400,
      "Cannot delete version 3: it is the skill's default_version. Make another version the default first, or delete the skill.",
    ]);
    expect(await client.skills.versions.delete("2", { skill_id: skill.id })).toEqual({ id: v2.id, object: "skill.version.deleted", deleted: true, version: "2" });
    expect(await refusal(client.skills.versions.retrieve("2", { skill_id: skill.id }))).toEqual([404, `No such Skill Version: 2 (skill ${skill.id})`]);
    // A deleted version's number is not used again.
    expect((await client.skills.versions.create(skill.id, { files: [await toFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md")] })).version).toBe("4");

    expect(await client.skills.delete(skill.id)).toEqual({ id: skill.id, object: "skill.deleted", deleted: true });
    expect(await refusal(client.skills.retrieve(skill.id))).toEqual([404, `No such Skill: ${skill.id}`]);
  });

  it("one zip makes a skill; files sent without a directory are bundled under the skill's name", async () => {
    const zip = writeZip([
      { name: "pdf/SKILL.md", bytes: enc.encode("---\nname: pdf\ndescription: >\n  Read and fill\n  PDF forms.\n---\n") },
      { name: "pdf/forms.md", bytes: enc.encode("# Forms") },
    ]);
    const fromZip = await client.skills.create({ files: await toFile(zip, "pdf.zip", { type: "application/zip" }) });
    expect([fromZip.name, fromZip.description]).toEqual(["pdf", "Read and fill PDF forms."]);
    expect(Object.keys(await unzipTexts(await client.skills.content.retrieve(fromZip.id)))).toEqual(["pdf/SKILL.md", "pdf/forms.md"]);

    const flat = await client.skills.create({ files: [await toFile(enc.encode('---\nname: "haiku"\ndescription: Write haiku.\n---\n'), "SKILL.md")] });
    expect(Object.keys(await unzipTexts(await client.skills.content.retrieve(flat.id)))).toEqual(["haiku/SKILL.md"]);
    const listed = await client.skills.list({ limit: 100 });
    expect(listed.data.map((s) => s.id).slice(0, 2)).toEqual([flat.id, fromZip.id]);
  });

  it("files that make no skill are refused in OpenAI's shape, and nothing is kept", async () => {
    const before = (await client.skills.list({ limit: 100 })).data.length;
    const make = async (files: [string, string][]) => refusal(client.skills.create({ files: await Promise.all(files.map(([name, text]) => toFile(enc.encode(text), name))) }));
    expect(await make([["a/readme.md", "x"]])).toEqual([400, "Invalid skill: a skill must contain a SKILL.md file."]);
    expect(await make([["a/SKILL.md", "# no front matter"]])).toEqual([400, "Invalid skill: SKILL.md must start with YAML front matter (a line '---')."]);
    expect(await make([["a/SKILL.md", "---\nname: a\n---\n"]])).toEqual([400, "Invalid skill: SKILL.md's front matter has no 'description'."]);
    expect(
      await make([
        ["a/SKILL.md", SKILL_MD],
        ["b/other.md", "x"],
      ]),
    ).toEqual([400, "Invalid skill: every file must be in SKILL.md's directory ('a'), 'b/other.md' is not."]);
    // The SDK refuses such a name itself; a plain form does not.
    const form = new FormData();
    form.append("files[]", new Blob([SKILL_MD]), "a/../SKILL.md");
    const raw = await fetch(`${h.url}/v1/skills`, { method: "POST", headers: { authorization: "Bearer sk-test" }, body: form });
    expect([raw.status, ((await raw.json()) as { error: { message: string } }).error.message]).toEqual([400, "Invalid skill: the file path 'a/../SKILL.md' is not a relative path inside the skill."]);
    expect(await refusal(client.skills.create({ files: await toFile(enc.encode("not a zip"), "x.zip") }))).toEqual([400, expect.stringMatching(/^Invalid skill: the zip file could not be read: /)]);
    expect(await refusal(client.skills.create({}))).toEqual([400, "Skill files must be sent as multipart/form-data in 'files' (a directory's files, or one .zip)."]);
    expect((await client.skills.list({ limit: 100 })).data.length).toBe(before);
  });

  it("a container's skill references must name a skill (and version) the namespace holds", async () => {
    const skill = await client.skills.create({ files: [await toFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md")] });
    const box = await client.containers.create({ name: "with-skills", skills: [{ type: "skill_reference", skill_id: skill.id, version: "1" }] });
    expect(box.name).toBe("with-skills");
    const before = (await client.containers.list()).data.length;
    expect(await refusal(client.containers.create({ name: "x", skills: [{ type: "skill_reference", skill_id: "skill_nope" }] }))).toEqual([404, "No such Skill: skill_nope"]);
    expect(await refusal(client.containers.create({ name: "x", skills: [{ type: "skill_reference", skill_id: skill.id, version: "9" }] }))).toEqual([
      404,
      `No such Skill Version: 9 (skill ${skill.id})`,
    ]);
    expect((await client.containers.list()).data.length).toBe(before);
  });

  it("a namespace's fileBytes quota counts skills' bundles", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const team = new OpenAI({ apiKey: await namespaceKey(admin, "skills-team", "admin", { fileBytes: 600 }), baseURL: `${h.url}/v1`, maxRetries: 0 });
    const one = await team.skills.create({ files: [await toFile(enc.encode(SKILL_MD), "csv-tools/SKILL.md")] });
    const [status] = (await refusal(team.skills.versions.create(one.id, { files: [await toFile(enc.encode(SKILL_MD + "x".repeat(300)), "csv-tools/SKILL.md")] }))) as [number];
    expect(status).toBe(429);
    expect((await team.skills.versions.list(one.id)).data.map((v) => v.version)).toEqual(["1"]);
    // Another namespace's skill is not there.
    expect(await refusal(client.skills.retrieve(one.id))).toEqual([404, `No such Skill: ${one.id}`]);
  });
});
