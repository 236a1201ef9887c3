/**
 * A Messages request's `container.skills` (beta): the skills to load into the turn's container — Anthropic's own
 * (`type: "anthropic"`, taken as named: mockllm holds none to check) and the caller's (`type: "custom"`, which must be
 * a skill of its namespace, skills.ts, and a version of it when one is pinned). Checked before the turn (a bad entry
 * is a 400 or 404 and no step is used); resolved for the answer, whose `container` then always shows (`id`,
 * `expires_at`, and each skill with its version resolved: a custom skill's version id — its epoch version under the
 * first beta — and an Anthropic skill's version as asked, `latest` when none was), so a client can send
 * `container: { id: message.container.id, skills }` on its next turn.
 */
import type { CanonicalRequest } from "../../../canonical/request";
import { apiError, type ApiError } from "../../../http/errors";
import type { Runtime } from "../../../runtime/types";
import type { MessagesRequest } from "../wire";
import { anthropicSkills, firstBeta, skillNotFound, versionNotFound, versionOf } from "./skills";

/** Most skills one request loads (the API's bound). */
const MAX_SKILLS = 8;

export interface LoadedSkill {
  type: "anthropic" | "custom";
  skillId: string;
  version: string;
}

const invalid = (message: string): ApiError => apiError("invalid_request", message);

/** The request's `container.skills` as written, or undefined when it names none. */
function askedSkills(wire: MessagesRequest): unknown {
  const container = (wire as { container?: unknown }).container;
  return container !== null && typeof container === "object" ? (container as { skills?: unknown }).skills : undefined;
}

/** Whether the request's container names skills at all (a turn without them has nothing here to check or resolve). */
export function asksSkills(wire: MessagesRequest): boolean {
  const asked = askedSkills(wire);
  return asked !== undefined && asked !== null;
}

/**
 * The skills the request loads, resolved, or the error its `container.skills` earns; undefined when it loads none.
 * @example await containerSkills(wire, request, rt) // [{ type: "custom", skillId: "skill_01…", version: "skillver_01…" }]
 */
export async function containerSkills(wire: MessagesRequest, request: CanonicalRequest, rt: Runtime): Promise<LoadedSkill[] | ApiError | undefined> {
  if (!asksSkills(wire)) return undefined;
  const asked = askedSkills(wire);
  if (!Array.isArray(asked)) return invalid("container.skills: Input should be a valid list");
  if (asked.length > MAX_SKILLS) return invalid(`container.skills: List should have at most ${MAX_SKILLS} items after validation, not ${asked.length}`);
  const first = firstBeta(request.headers["anthropic-beta"]);
  const store = rt.objects === undefined ? undefined : anthropicSkills(rt.objects);
  const out: LoadedSkill[] = [];
  for (const [i, entry] of asked.entries()) {
    const at = `container.skills.${i}`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return invalid(`${at}: Input should be a valid dictionary or object to extract fields from`);
    const { type, skill_id: id, version } = entry as Record<string, unknown>;
    if (type !== "anthropic" && type !== "custom") return invalid(`${at}.type: Input should be 'anthropic' or 'custom'`);
    if (typeof id !== "string" || id === "") return invalid(`${at}.skill_id: Field required`);
    if (version !== undefined && typeof version !== "string") return invalid(`${at}.version: Input should be a valid string`);
    if (out.some((s) => s.skillId === id)) return invalid(`${at}: skill '${id}' is listed more than once`);
    if (type === "anthropic") {
      out.push({ type, skillId: id, version: version ?? "latest" });
      continue;
    }
    const skill = store === undefined ? null : await store.get(id);
    if (store === undefined || skill === null) return skillNotFound(id);
    const pinned = version === undefined || version === "latest" ? skill.latestVersion : version;
    const v = pinned === "" ? null : await versionOf(store, id, pinned);
    if (v === null) return versionNotFound(version ?? "latest");
    out.push({ type, skillId: id, version: first ? v.version : v.id });
  }
  return out;
}
