/**
 * Skills and their versions (OpenAI's; Anthropic's under its own prefix), kept in the caller's `ObjectStore`: a skill is `skills/{id}` (its record in the
 * object's metadata, so a listing reads no bodies), a version `skill_versions/{skill}/{version}` (its bundle, a zip;
 * its record in the metadata). OpenAI's versions are numbered from "1", Anthropic's are Unix epoch microseconds: both
 * order as numbers. The skill points at its default and latest.
 */
import { metaRecord, recordMeta, type ObjectStore } from "../../../../objects/store";

export interface SkillRecord {
  id: string;
  createdAt: number;
  /** `creationStamp()` at creation: the listing's order. */
  stamp: number;
  /** The default version's name and description (what the skill shows). */
  name: string;
  description: string;
  defaultVersion: string;
  latestVersion: string;
  /** Versions made so far: the next is numbered one more (a deleted version's number is not used again). */
  versionsMade: number;
  /** Anthropic's skills: the display title given at creation (else the name shows), and when (epoch microseconds) the skill was made and last had a version added or removed. */
  title?: string;
  createdMicros?: number;
  updatedMicros?: number;
}

export interface SkillVersionRecord {
  id: string;
  skillId: string;
  version: string;
  createdAt: number;
  stamp: number;
  name: string;
  description: string;
  bytes: number;
}

/** Most skills a namespace keeps, and versions a skill keeps (mockllm's bounds). */
export const MAX_SKILLS = 1000;
export const MAX_SKILL_VERSIONS = 100;

const SKILLS = "skills/";
const VERSIONS = "skill_versions/";
const versionKey = (skillId: string, version: string) => `${VERSIONS}${skillId}/${version}`;

export class SkillStore {
  constructor(private readonly store: ObjectStore) {}

  async put(r: SkillRecord): Promise<void> {
    await this.store.put(SKILLS + r.id, "", recordMeta(r));
  }

  async get(id: string): Promise<SkillRecord | null> {
    const head = await this.store.head(SKILLS + id);
    return (head === null ? undefined : metaRecord<SkillRecord>(head.meta)) ?? null;
  }

  /** Every skill, oldest first. */
  async all(): Promise<SkillRecord[]> {
    const out: SkillRecord[] = [];
    for await (const o of this.store.list(SKILLS)) {
      const r = metaRecord<SkillRecord>(o.meta);
      if (r !== undefined) out.push(r);
    }
    return out.sort((a, b) => a.stamp - b.stamp);
  }

  /** Deletes the skill and every version of it. */
  async delete(id: string): Promise<void> {
    const versions = await this.versions(id);
    await this.store.delete([...versions.map((v) => versionKey(id, v.version)), SKILLS + id]);
  }

  async putVersion(r: SkillVersionRecord, zip: Uint8Array): Promise<void> {
    await this.store.put(versionKey(r.skillId, r.version), zip, recordMeta(r));
  }

  async version(skillId: string, version: string): Promise<SkillVersionRecord | null> {
    const head = await this.store.head(versionKey(skillId, version));
    return (head === null ? undefined : metaRecord<SkillVersionRecord>(head.meta)) ?? null;
  }

  /** The skill's versions, oldest first. */
  async versions(skillId: string): Promise<SkillVersionRecord[]> {
    const out: SkillVersionRecord[] = [];
    for await (const o of this.store.list(`${VERSIONS}${skillId}/`)) {
      const r = metaRecord<SkillVersionRecord>(o.meta);
      if (r !== undefined) out.push(r);
    }
    return out.sort((a, b) => Number(a.version) - Number(b.version));
  }

  /** A version's bundle (a zip) with its record, in one read; null when there is no such version. */
  async bundle(skillId: string, version: string): Promise<{ record: SkillVersionRecord; body: ReadableStream<Uint8Array> } | null> {
    const o = await this.store.get(versionKey(skillId, version));
    const record = o === null ? undefined : metaRecord<SkillVersionRecord>(o.meta);
    return o === null || record === undefined ? null : { record, body: o.stream() };
  }

  async deleteVersion(skillId: string, version: string): Promise<void> {
    await this.store.delete([versionKey(skillId, version)]);
  }
}
