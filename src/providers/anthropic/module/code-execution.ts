/**
 * Anthropic's code execution tool over the Files API: a reply whose `code_execution` uses run under a request offering
 * the tool (`code_execution_20250522`, or a later version's bash and text-editor form) is completed here, after the
 * decision and before rendering (files live in the object store, out of the pure engine's reach). Each use carries
 * the container it ran in — the request's `container` (an id, or `{ id }`), else one named for the reply — and the
 * files its scripted `files` wrote, kept as Files API files the client may download (`downloadable: true`), which the
 * result block names (`code_execution_output` / `bash_code_execution_output`) and the message's `container` reports.
 */
import type { Reply } from "../../../canonical/outcome";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ApiError } from "../../../http/errors";
import { runCodeUses } from "../../../canonical/server-tools";
import { makeId } from "../../../http/ids";
import type { Runtime } from "../../../runtime/types";
import { anthropicFiles } from "../file-refs";
import type { MessagesRequest } from "../wire";
import { CODE_EXECUTION_PURPOSE, mimeOfName } from "./batches/files";
import { containerSkills } from "./container-skills";

/** How long a container lives after it is made, as the message's `container.expires_at` reports it. */
const CONTAINER_SECONDS = 30 * 24 * 3600;
/** The first tool version whose code runs as bash commands (`bash_code_execution`), not Python (`code_execution`). */
const PYTHON_ONLY = "code_execution_20250522";

/** The request's code execution tool type (`code_execution_20250825`, …), or undefined when it offers none. */
function codeExecutionTool(wire: MessagesRequest): string | undefined {
  for (const t of wire.tools ?? []) if (typeof t.type === "string" && t.type.startsWith("code_execution_")) return t.type;
  return undefined;
}

/** The container the request names (`container: "container_…"` or `{ id }`), else one named for the reply. */
function containerId(wire: MessagesRequest, reply: Reply): string {
  const asked = (wire as { container?: unknown }).container;
  if (typeof asked === "string" && asked !== "") return asked;
  const id = asked !== null && typeof asked === "object" ? (asked as { id?: unknown }).id : undefined;
  return typeof id === "string" && id !== "" ? id : makeId("container_011C", `container|${reply.idSeed}`, 22);
}

/**
 * Completes a decided Messages turn: the skills the request's `container.skills` loads (or the error they earn,
 * container-skills.ts), and its `code_execution` uses run in the request's container; the reply's `container` when
 * skills were loaded.
 * @example await completeMessagesTurn(wire, request, reply, rt) // { ...reply, container: { id: "container_011C…", expiresAt, skills: [...] } }
 */
export async function completeMessagesTurn(wire: MessagesRequest, request: CanonicalRequest, reply: Reply, rt: Runtime): Promise<Reply | ApiError> {
  const skills = await containerSkills(wire, request, rt);
  if (skills !== undefined && !Array.isArray(skills)) return skills;
  if (reply.serverTools === undefined && skills === undefined) return reply;
  const now = Math.floor(Date.now() / 1000);
  const box = { id: containerId(wire, reply), expiresAt: new Date((now + CONTAINER_SECONDS) * 1000).toISOString(), now };
  const ran = await completeCodeExecution(wire, reply, rt, box);
  return skills === undefined ? ran : { ...ran, container: { id: box.id, expiresAt: box.expiresAt, skills } };
}

/** Runs the reply's `code_execution` uses in the request's container, writing their files to the Files API. */
async function completeCodeExecution(wire: MessagesRequest, reply: Reply, rt: Runtime, box: { id: string; expiresAt: string; now: number }): Promise<Reply> {
  const uses = reply.serverTools;
  if (uses === undefined || !uses.some((u) => u.type === "code_execution")) return reply;
  const tool = codeExecutionTool(wire);
  if (tool === undefined) return reply;
  const { id, expiresAt, now } = box;
  const files = rt.objects === undefined ? undefined : anthropicFiles(rt.objects);
  const ran = await runCodeUses(
    uses,
    async (f) => {
      // Derived from the reply, so a replayed turn writes the same file again rather than another.
      const fileId = makeId("file_011C", `code-file|${reply.idSeed}|${f.use}|${f.index}`, 22);
      await files?.create({ id: fileId, filename: f.name, purpose: CODE_EXECUTION_PURPOSE, bytes: f.bytes.length, createdAt: now, mimeType: mimeOfName(f.name) }, f.bytes);
      return { fileId, name: f.name, path: f.name };
    },
    (written) => ({ id, files: written, expiresAt, form: tool === PYTHON_ONLY ? "python" : "bash" }),
  );
  return { ...reply, serverTools: ran };
}
