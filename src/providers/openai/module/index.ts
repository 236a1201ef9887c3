/**
 * OpenAI: Chat Completions, the legacy Completions, Responses (with stored responses, compaction and input-token counts), embeddings, images
 * (and the files their URLs serve), speech, transcriptions, moderations, decisions, files (also sent in parts) and batches, vector
 * stores, Code Interpreter's containers, skills, webhooks, ChatKit sessions, the model listing every OpenAI-compatible
 * client reads, and two WebSocket protocols (Responses, Realtime).
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { responsesSocket } from "./sockets/responses";
import { realtimeSocket } from "./sockets/realtime";
import { realtimeClientSecrets } from "../realtime/client-secrets";
import type { ApiError } from "../../../http/errors";
import type { ProviderModule, SocketSurface } from "../../registry/module";
import { MAX_BODY_BYTES } from "../../../http/body";
import { openaiChat } from "../chat";
import { openaiCompletions } from "../completions";
import { chatToolCalls } from "../chat/render-json";
import { openaiEmbeddings } from "../embeddings";
import { openaiImages } from "../images";
import { IMAGE_FILES_PATH, imageFileResponse } from "../images/files";
import { openaiModerations } from "../moderations";
import { openaiDecisions } from "../decisions";
import { openaiSpeech, openaiTranscriptions } from "../audio";
import { checkOpenAIAuth } from "../errors";
import { missingParameter } from "../request-error";
import { knowsFilesPath, serveFiles } from "./batches/files";
import { knowsBatchesPath, serveBatches } from "./batches/batches";
import { openaiUploads } from "./batches/uploads";
import { openaiModelsRoute } from "../models";
import { openaiConversations } from "../conversations/routes";
import { openaiVectorStores } from "./vector-stores/routes";
import { completeFileSearch } from "./vector-stores/file-search";
import { completeCodeInterpreter } from "./containers/code-interpreter";
import { openaiContainers } from "./containers/routes";
import { openaiSkills } from "./skills/routes";
import { fineTunedModels, openaiFineTuningJobs } from "./fine-tuning/jobs";
import { openaiAlphaGraders } from "./fine-tuning/graders";
import { openaiEvals } from "./evals/routes";
import { openaiWebhookEndpoints, openaiWebhookEventTypes } from "./webhooks/routes";
import { openaiChatKitSessions, openaiChatKitThreads } from "./chatkit/routes";
import { openaiAgents } from "./agents/routes";
import { openaiVaults } from "./agents/vaults";
import { openaiRealtimeCalls, realtimeCallBinding } from "./realtime-calls";
import { openaiStoredChat } from "../chat/stored";
import { countInputTokens, handleResponseAction, handleStoredResponse, isInputTokensPath, openaiResponses, openaiResponsesCompact, responseAction, storedResponseId } from "../responses";

/** Chat Completions and Responses (`call_id`) derive the same ids: what every OpenAI-compatible surface renders. */
export function openaiToolCallIds(reply: Reply): (string | null)[] {
  return replyChoices(reply).flatMap((c) => chatToolCalls(c).map((t) => t.id));
}

/** Browsers cannot set headers on a WebSocket: the key may come as a sub-protocol instead, which passes every check. */
function keyInSubprotocol(offered: string[]): boolean {
  return offered.some((p) => p.startsWith("openai-insecure-api-key."));
}

const responsesWebSocket: SocketSurface = {
  kind: "responses",
  endpoint: "responses",
  matchPath: (path) => path === "/v1/responses" || path === "/responses",
  surface: openaiResponses,
  check: (headers, _query, offered) => (keyInSubprotocol(offered) ? undefined : checkOpenAIAuth(headers)),
  open: responsesSocket,
  // A `response.create` carries what POST /v1/responses does: the same 10 MiB.
  maxMessageBytes: MAX_BODY_BYTES,
};

const realtimeWebSocket: SocketSurface = {
  kind: "realtime",
  endpoint: "realtime",
  matchPath: (path) => path === "/v1/realtime" || path === "/realtime",
  surface: openaiResponses,
  check(headers, query, offered): ApiError | undefined {
    if (keyInSubprotocol(offered)) return undefined;
    const auth = checkOpenAIAuth(headers);
    if (auth) return auth;
    if (!query.get("model") && !query.get("call_id") && !query.get("intent")) {
      return missingParameter("model");
    }
    return undefined;
  },
  subprotocol: (offered) => (offered.includes("realtime") ? "realtime" : undefined),
  // `?call_id=`: the sideband socket of an accepted SIP call, playing the call's scenario and session.
  bind(query, rt, asked) {
    const callId = query.get("call_id");
    return Promise.resolve(callId === null ? undefined : realtimeCallBinding(callId, rt, asked));
  },
  open: realtimeSocket,
};

// A Responses `file_search` use without results searches the request's vector stores, and a `code_execution` use runs
// in the request's Code Interpreter container (both live in this layer), on every path that decides a Responses turn
// (HTTP, WebSocket, batches): the surface object is shared. A reply without server tools needs neither.
openaiResponses.complete = (wire, request, reply, rt) => {
  if (reply.serverTools === undefined) return reply;
  return completeFileSearch(wire, request, reply, rt).then((searched) => ("idSeed" in searched ? completeCodeInterpreter(wire, searched, rt) : searched));
};

export const openaiModule: ProviderModule = {
  name: "openai",
  banner: [
    { name: "OpenAI", below: "/v1", page: "providers/openai.md" },
    { name: "Moderations, images, audio", below: "/v1", page: "providers/openai-moderations.md, openai-images.md, openai-audio.md", group: "beside" },
    { name: "Decisions (also Gemini's)", below: "/v1", page: "guide/decisions.md", group: "beside" },
    // One row for every WebSocket protocol (their page is one).
    { name: "WebSockets", below: "/v1/responses (also /v1/realtime, Gemini Live)", page: "providers/websockets.md", group: "socket" },
  ],
  surfaces: [openaiChat, openaiResponses, openaiResponsesCompact, openaiEmbeddings, openaiCompletions, openaiImages, openaiSpeech, openaiTranscriptions, openaiModerations, openaiDecisions],
  sideRoutes: [
    {
      serve(request, path, ctx) {
        const id = storedResponseId(path);
        return id === undefined ? undefined : handleStoredResponse(request, ctx.rt, id);
      },
    },
    { serve: (request, path, ctx) => (isInputTokensPath(path) ? countInputTokens(request, ctx.rt, ctx.prefix) : undefined) },
    {
      knows: (path) => responseAction(path) !== undefined,
      serve(request, path, ctx) {
        const action = responseAction(path);
        return action === undefined ? undefined : handleResponseAction(request, ctx.rt, action.id, action.action);
      },
    },
    openaiConversations,
    openaiVectorStores,
    openaiContainers,
    openaiSkills,
    openaiFineTuningJobs,
    openaiAlphaGraders,
    openaiEvals,
    openaiWebhookEndpoints,
    openaiWebhookEventTypes,
    openaiChatKitSessions,
    openaiChatKitThreads,
    // The Agents API (`/v1/agents/…`, beta `agents=v1`): sessions whose agent the script plays.
    openaiAgents,
    openaiVaults,
    openaiStoredChat,
    // The files `url` image answers point at, drawn again from their id.
    { knows: (path) => path.startsWith(IMAGE_FILES_PATH), serve: (request, path) => imageFileResponse(request.method, path) },
    // Files and batches (contract section 11), in the caller's namespace (`Runtime.objects`).
    { knows: knowsFilesPath, serve: (request, path, ctx) => serveFiles(request, path, ctx) },
    // Files sent in parts (`/v1/uploads`): what they make is a file of the same store.
    openaiUploads,
    { knows: knowsBatchesPath, serve: (request, path, ctx) => serveBatches(request, path, ctx) },
    openaiModelsRoute(fineTunedModels),
    realtimeClientSecrets,
    openaiRealtimeCalls,
  ],
  sockets: [responsesWebSocket, realtimeWebSocket],
  // Every path no other provider claims: OpenAI-compatible clients are the default.
  errorPaths: [{ priority: 1000, owns: () => true, surface: openaiChat }],
  apiPrefixes: ["/v1"],
  toolCallIds: openaiToolCallIds,
  openPath: (pathname) => pathname.includes(IMAGE_FILES_PATH),
  recordable: true,
};
