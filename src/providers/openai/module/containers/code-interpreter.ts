/**
 * The Responses `code_interpreter` tool over the namespace's containers: a reply whose `code_execution` uses run under
 * a request offering the tool is completed here, after the decision and before rendering (containers live in the
 * object store, out of the pure engine's reach). The tool's `container` names the sandbox: a container id (it must
 * exist and not be expired; it is marked active) or `{ type: "auto", file_ids, memory_limit }` (a container made for
 * the response, its id derived from the reply as before, the files copied in). Each use's scripted `files` are written
 * to it (`source: "assistant"`), so the `container_file_citation` the text carries leads a client to the bytes.
 */
import type { Reply } from "../../../../canonical/outcome";
import { runCodeUses } from "../../../../canonical/server-tools";
import type { ApiError } from "../../../../http/errors";
import type { Runtime } from "../../../../runtime/types";
import { creationStamp } from "../../../../objects/ids";
import { stableHex } from "../../../../util/hash";
import { nowSeconds } from "../../platform";
import { invalidType, unsupportedValue } from "../../request-error";
import { autoContainerId } from "../../responses/server-tools";
import type { ResponsesRequest } from "../../responses/wire";
import { containerExpired, ContainerStore, type ContainerRecord } from "./store";
import { copyFiles, DEFAULT_MINUTES, expiredContainer, fileIdsOf, MEMORY_LIMITS, noSuchContainer } from "./routes";

/** The container the request's `code_interpreter` tool names, made or marked active; or the refusal. */
async function containerOf(tool: Record<string, unknown>, at: number, reply: Reply, store: ContainerStore, rt: Runtime): Promise<ContainerRecord | ApiError> {
  const spec = tool.container;
  const param = `tools[${at}].container`;
  if (typeof spec === "string") {
    const found = await store.get(spec);
    if (found === null) return { ...noSuchContainer(spec), param };
    if (containerExpired(found, nowSeconds())) return { ...expiredContainer(spec), param };
    return store.touch(found);
  }
  // No container at all reaches here only when the request's checks are off (`strict: false`): run it as `auto`.
  if (spec !== undefined && spec !== null && (typeof spec !== "object" || Array.isArray(spec))) return invalidType(param, "a string or an object", spec);
  const auto = (spec ?? { type: "auto" }) as Record<string, unknown>;
  if (auto.type !== "auto") return unsupportedValue(auto.type, ["auto"], `${param}.type`);
  const id = autoContainerId(reply.idSeed);
  const existing = await store.get(id);
  if (existing !== null) return store.touch(existing);
  const fileIds = fileIdsOf(auto.file_ids, `${param}.file_ids`);
  if (!Array.isArray(fileIds)) return fileIds;
  const memory = auto.memory_limit ?? "1g";
  if (!(MEMORY_LIMITS as readonly unknown[]).includes(memory)) return unsupportedValue(memory, MEMORY_LIMITS, `${param}.memory_limit`);
  const now = nowSeconds();
  const record: ContainerRecord = { id, createdAt: now, stamp: creationStamp(), lastActiveAt: now, minutes: DEFAULT_MINUTES, name: `Container for ${id}`, memoryLimit: memory as string };
  const copied = await copyFiles(rt, store, id, fileIds);
  if (!Array.isArray(copied)) return { ...copied, param: `${param}.file_ids` };
  await store.create(record);
  return record;
}

/**
 * Runs the reply's `code_execution` uses in the request's container: each use carries the container and the files
 * its code wrote. A reply without such uses, or a request without the tool, is returned as it is.
 * @example await completeCodeInterpreter(wire, reply, rt) // reply.serverTools[0].container: { id: "cntr_…", files: [{ fileId: "cfile_…", … }] }
 */
export async function completeCodeInterpreter(wire: ResponsesRequest, reply: Reply, rt: Runtime): Promise<Reply | ApiError> {
  const uses = reply.serverTools;
  if (uses === undefined || rt.objects === undefined || !uses.some((u) => u.type === "code_execution")) return reply;
  const tools = wire.body.tools ?? [];
  const at = tools.findIndex((t) => t.type === "code_interpreter");
  if (at < 0) return reply;
  const store = new ContainerStore(rt.objects);
  const container = await containerOf(tools[at] as Record<string, unknown>, at, reply, store, rt);
  if ("code" in container) return container;
  const now = nowSeconds();
  const ran = await runCodeUses(
    uses,
    async (f) => {
      // Derived from the reply, so a replayed turn writes the same file again rather than another.
      const fileId = `cfile_${stableHex(`cfile|${reply.idSeed}|${f.use}|${f.index}`, 32)}`;
      const path = `/mnt/data/${f.name}`;
      await store.putFile({ id: fileId, containerId: container.id, createdAt: now, stamp: creationStamp(), bytes: f.bytes.length, path, source: "assistant" }, f.bytes);
      return { fileId, name: f.name, path };
    },
    (files) => ({ id: container.id, files }),
  );
  return { ...reply, serverTools: ran };
}
