/**
 * A namespace's `files` and `fileBytes` quotas (contract section 9; files and batches, section 11), counted over what
 * its store holds now: every provider's uploaded files and the files batches wrote. An upload past either is the
 * namespace's 429 (`QuotaError`, answered by the router as every quota is).
 */
import { FileStore } from "../objects/files";
import { scopedObjects } from "../objects/store";
import { UploadStore } from "../objects/uploads";
import type { Runtime } from "../runtime/types";
import { QuotaError } from "./quota";

/** The areas of a namespace's store that hold files a client uploaded or reads (OpenAI's at the root, Anthropic's, Gemini's). */
const FILE_AREAS = ["", "anthropic/", "gemini/"];
/** Areas whose objects count as bytes but not as files: OpenAI's Code Interpreter containers' files, OpenAI's and Anthropic's skills' bundles. */
const BYTE_AREAS = ["container_files/", "skill_versions/", "anthropic/skill_versions/"];

/**
 * Throws QuotaError when adding `newFiles` files (one upload's; none for an upload's part) of `bytes` would take the
 * caller's namespace past its file quotas. The parts of pending uploads (OpenAI's `/v1/uploads`), containers' files and
 * skills' bundles count as bytes.
 * @example await checkFileQuotas(ctx.rt, content.length)
 */
export async function checkFileQuotas(rt: Runtime, bytes: number, newFiles = 1): Promise<void> {
  const ns = rt.caller?.namespace;
  const q = ns?.quotas;
  if (ns === undefined || q === undefined || rt.objects === undefined || (q.files === undefined && q.fileBytes === undefined)) return;
  let files = 0;
  let used = 0;
  for (const area of FILE_AREAS) {
    const u = await new FileStore(area === "" ? rt.objects : scopedObjects(rt.objects, area)).usage();
    files += u.files;
    used += u.bytes;
  }
  used += await new UploadStore(rt.objects).pendingBytes();
  for (const area of BYTE_AREAS) for await (const o of rt.objects.list(area)) used += o.size;
  if (q.files !== undefined && newFiles > 0 && files + newFiles > q.files) throw new QuotaError("files", 60, ns.name);
  if (q.fileBytes !== undefined && used + bytes > q.fileBytes) throw new QuotaError("fileBytes", 60, ns.name);
}
