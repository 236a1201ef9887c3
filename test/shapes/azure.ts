/**
 * Azure OpenAI Chat Completions: keys and JSON types of what Azure adds to (and leaves out of) OpenAI's chunks and
 * bodies — the content-filter annotations, the stream's leading empty-`choices` chunk, the prompt block's 400, the
 * gateway's own errors —, read from public recordings (see `sources`). A source whose `path` says "documentation
 * only" is a documentation page or a project's quoted issue, not a recording; the fields read from it are marked.
 *
 * Chunk kinds (see `azureKind` in test/unit/shapes-azure.test.ts): prompt_filter (the leading chunk), role, content,
 * finish, finish:content_filter.
 */
import { chatUsage } from "./openai-chat";
import type { SurfaceTable } from "./shape";

/** `{filtered, severity}` categories and `{filtered, detected}` ones under `at`; `?` marks keys some recordings lack. */
function annotations(at: string, severity: string[], detection: string[]): Record<string, string> {
  const out: Record<string, string> = { [at]: "object" };
  for (const raw of severity) {
    const k = raw.replace("?", "");
    const opt = raw.endsWith("?") ? "?" : "";
    Object.assign(out, { [`${at}.${k}${opt}`]: "object", [`${at}.${k}.filtered`]: "boolean", [`${at}.${k}.severity`]: "string" });
  }
  for (const raw of detection) {
    const k = raw.replace("?", "");
    const opt = raw.endsWith("?") ? "?" : "";
    Object.assign(out, { [`${at}.${k}${opt}`]: "object", [`${at}.${k}.filtered`]: "boolean", [`${at}.${k}.detected`]: "boolean" });
  }
  return out;
}

const SEVERITY = ["hate", "self_harm", "sexual", "violence"];
// Recordings with a deployment whose filter runs the protected-material models carry these; others do not.
const COMPLETION_DETECTION = ["protected_material_code?", "protected_material_text?"];

const promptFilterResults = {
  prompt_filter_results: "array",
  "prompt_filter_results[].prompt_index": "number",
  ...annotations("prompt_filter_results[].content_filter_results", SEVERITY, ["jailbreak?"]),
};

const envelope = { id: "string", object: "string", created: "number", model: "string", system_fingerprint: "string", choices: "array" };

const choice = {
  "choices[].index": "number",
  "choices[].delta": "object",
  "choices[].logprobs": "null",
  "choices[].finish_reason": "null",
  "choices[].content_filter_results": "object",
};

const usage = { usage: "object", ...chatUsage };

export const azureChat: SurfaceTable = {
  surface: "azure-chat",
  sources: {
    stream: {
      repo: "dto-btn/ssc-assistant",
      path: "app/frontend/src/screens/FrontendChatTestScreen/agents/utils/mergeOpenAiDelta/testHelpers/simple_chat.ts, commit 2b492bba",
      recorded: "2025-06-03 (gpt-4o-2024-05-13)",
    },
    json: { repo: "enoch-sit/tool-chatbot-boilerplate", path: "services/mimicAzure/data/eduhk_non_stream.md (first response), commit a3e3c8b2", recorded: "2025-09-17 (gpt-4.1-2025-04-14)" },
    promptBlock: {
      repo: "Mirascope/mirascope",
      path: "python/tests/e2e/output/snapshots/test_refusal/azure-openai_completions_gpt_4o_mini_snapshots.py",
      recorded: "2025 (gpt-4o-mini)",
    },
    filterDoc: {
      repo: "MicrosoftDocs/azure-ai-docs",
      path: "articles/ai-services/openai/concepts/content-filter.md (documentation only: finish_reason content_filter with a category filtered: true, and protected_material_* on completions)",
      recorded: "2025",
    },
    gateway: {
      repo: "MicrosoftDocs/azure-docs",
      path: "issue #114602 (404 Resource not found), openai/codex#3725 (400 API version not supported), alex-wolf-ps/dbchatprov2#2 (429 wording); quoted in issues, not fixtures",
      recorded: "2023–2025",
    },
  },
  opaque: [],
  shapes: {
    // Blank identity fields, no system_fingerprint.
    "chunk:prompt_filter": { from: ["stream"], keys: { id: "string", object: "string", created: "number", model: "string", choices: "array", ...promptFilterResults } },
    "chunk:role": {
      from: ["stream"],
      keys: { ...envelope, ...choice, "choices[].delta.role": "string", "choices[].delta.content": "string", "choices[].delta.refusal?": "null" },
    },
    "chunk:content": {
      from: ["stream"],
      keys: { ...envelope, ...choice, "choices[].delta.content": "string", ...annotations("choices[].content_filter_results", SEVERITY, COMPLETION_DETECTION) },
    },
    "chunk:finish": { from: ["stream"], keys: { ...envelope, ...choice, "choices[].finish_reason": "string" } },
    // Documentation only: the categories on the finish chunk of a filtered completion.
    "chunk:finish:content_filter": {
      from: ["filterDoc"],
      keys: { ...envelope, ...choice, "choices[].finish_reason": "string", ...annotations("choices[].content_filter_results", SEVERITY, COMPLETION_DETECTION) },
    },
    "chat.completion": {
      from: ["json"],
      keys: {
        ...envelope,
        "choices[].index": "number",
        "choices[].finish_reason": "string",
        "choices[].logprobs": "null",
        "choices[].message": "object",
        "choices[].message.role": "string",
        "choices[].message.content": "string",
        "choices[].message.refusal": "null",
        "choices[].message.annotations": "array",
        ...annotations("choices[].content_filter_results", SEVERITY, COMPLETION_DETECTION),
        ...promptFilterResults,
        ...usage,
      },
    },
    "error:content_filter": {
      from: ["promptBlock"],
      keys: {
        error: "object",
        "error.message": "string",
        "error.type": "null",
        "error.param": "string",
        "error.code": "string",
        "error.status": "number",
        "error.innererror": "object",
        "error.innererror.code": "string",
        ...annotations("error.innererror.content_filter_result", SEVERITY, ["jailbreak"]),
      },
    },
    // 401 wording is documentation only (protocols.md 10.3.1: UNVERIFIED); 404 and 429 as quoted in the issues.
    "error:gateway": { from: ["gateway"], keys: { error: "object", "error.code": "string", "error.message": "string" } },
  },
};

/**
 * Azure OpenAI Images (a new table; the chat rows above are unchanged): each image's `content_filter_results` and
 * `prompt_filter_results` (the latter with `profanity`), the blocked prompt's 400 and the filtered image's answer.
 * Kinds (see test/unit/shapes-azure-images.test.ts): images (an answer), error:content_policy_violation,
 * filtered_image.
 */
export const azureImages: SurfaceTable = {
  surface: "azure-images",
  sources: {
    dalle3: {
      repo: "(a public README; the code index shows no repository name, index id 30976409744)",
      path: "a DALL·E 3 call on deployment `dalle3`, api-version 2024-02-15-preview, its whole answer with a dalleproduse blob url",
      recorded: "2024-04-21 (dall-e-3)",
    },
    annotationsDoc: {
      repo: "MicrosoftDocs/azure-ai-docs",
      path: "articles/ai-services/openai/concepts/prompt-transformation.md (documentation only: content_filter_results and prompt_filter_results on each data item)",
      recorded: "2024-07",
    },
    promptBlock: { repo: "BerriAI/litellm", path: "issue #16072 (the whole Azure error of a blocked dall-e-3 prompt, quoted from a live call)", recorded: "2025-10-29 (dall-e-3)" },
    filteredDoc: {
      repo: "MicrosoftDocs/azure-ai-docs",
      path: "articles/ai-services/openai/how-to/dall-e.md (documentation only: a filtered image is `{created, error: {code: contentFilter, message}}`)",
      recorded: "2024",
    },
  },
  opaque: [],
  shapes: {
    images: {
      from: ["dalle3", "annotationsDoc"],
      keys: {
        created: "number",
        data: "array",
        "data[].url?": "string",
        "data[].b64_json?": "string",
        "data[].revised_prompt?": "string",
        ...annotations("data[].content_filter_results", SEVERITY, []),
        ...annotations("data[].prompt_filter_results", SEVERITY, ["profanity"]),
      },
    },
    "error:content_policy_violation": {
      from: ["promptBlock"],
      keys: {
        error: "object",
        "error.code": "string",
        "error.message": "string",
        "error.type": "string",
        "error.inner_error": "object",
        "error.inner_error.code": "string",
        // The recording shows `jailbreak` alone (nothing filtered); the severity categories follow Azure's prompt annotation.
        ...annotations("error.inner_error.content_filter_results", ["hate?", "self_harm?", "sexual?", "violence?"], ["jailbreak"]),
      },
    },
    filtered_image: { from: ["filteredDoc"], keys: { created: "number", error: "object", "error.code": "string", "error.message": "string" } },
  },
};
