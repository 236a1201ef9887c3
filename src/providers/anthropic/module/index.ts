/**
 * Anthropic: Messages, token counting, and the model listing its clients ask for on `/v1/models` (told apart from
 * OpenAI's by `anthropic-version` or `x-api-key`).
 */
import type { Reply } from "../../../canonical/outcome";
import type { ProviderModule } from "../../registry/module";
import { anthropicMessages } from "../index";
import { replyBlocks } from "../blocks";
import { countTokens } from "../count-tokens";
import { getModel, listModels } from "../models";
import { knowsMessageBatchesPath, serveMessageBatches } from "./batches/batches";
import { serveAnthropicFiles } from "./batches/files";
import { serveAnthropicSkills } from "./skills";
import { knowsManagedAgentsPath, serveManagedAgents } from "./agents/routes";
import { completeMessagesTurn } from "./code-execution";
import { asksSkills, containerSkills } from "./container-skills";
import type { CanonicalRequest } from "../../../canonical/request";
import type { Runtime } from "../../../runtime/types";
import type { ParseResult } from "../../types";
import type { MessagesRequest } from "../wire";

/** The `tool_use` ids of a reply rendered as Messages: also Bedrock InvokeModel's and Claude on Vertex's. */
export function anthropicToolCallIds(reply: Reply): (string | null)[] {
  return replyBlocks(reply).flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
}

const COUNT_TOKENS = ["/v1/messages/count_tokens", "/messages/count_tokens"];

// A `code_execution` use runs in a container and writes its files to the Files API, and `container.skills` names
// skills of the caller's store (both live in this layer), on every path that decides a Messages turn (HTTP, batches):
// the surface object is shared. The skills are checked before the turn too, so a bad one uses no step.
// A turn with neither (most) goes on as before, at once.
anthropicMessages.complete = (wire, request, reply, rt) => (reply.serverTools === undefined && !asksSkills(wire) ? reply : completeMessagesTurn(wire, request, reply, rt));
const prepareMessages = anthropicMessages.prepare;
const prepared = (wire: MessagesRequest, request: CanonicalRequest, rt: Runtime) => (prepareMessages === undefined ? { ok: true as const, wire, request } : prepareMessages(wire, request, rt));
anthropicMessages.prepare = (wire, request, rt) => (asksSkills(wire) ? skillsChecked(wire, request, rt) : prepared(wire, request, rt));

async function skillsChecked(wire: MessagesRequest, request: CanonicalRequest, rt: Runtime): Promise<ParseResult<MessagesRequest>> {
  const skills = await containerSkills(wire, request, rt);
  if (skills !== undefined && !Array.isArray(skills)) return { ok: false, error: skills };
  return prepared(wire, request, rt);
}

export const anthropicModule: ProviderModule = {
  name: "anthropic",
  banner: [{ name: "Anthropic", below: "", page: "providers/anthropic.md" }],
  surfaces: [anthropicMessages],
  sideRoutes: [
    // Message Batches (contract section 11), in the caller's namespace (`Runtime.objects`).
    { knows: knowsMessageBatchesPath, serve: (request, path, ctx) => serveMessageBatches(request, path, ctx) },
    // The Files API (beta) on `/v1/files`, before OpenAI's route of that path: only requests with Anthropic's headers.
    { order: -1, serve: (request, path, ctx) => serveAnthropicFiles(request, path, ctx) },
    // The Skills API (beta) on `/v1/skills`, before OpenAI's route of that path, the same way.
    { order: -1, serve: (request, path, ctx) => serveAnthropicSkills(request, path, ctx) },
    // Claude Managed Agents (beta): agents, environments, sessions and their events, only with Anthropic's headers.
    { order: -1, knows: knowsManagedAgentsPath, serve: (request, path, ctx) => serveManagedAgents(request, path, ctx) },
    { paths: COUNT_TOKENS, serve: (request, path, ctx) => (COUNT_TOKENS.includes(path) ? countTokens(request, ctx.rt, []) : undefined) },
    {
      // After Gemini's listing (a Gemini key wins), before OpenAI's (which takes every other request).
      order: 10,
      async serve(request, path, ctx) {
        if (request.method !== "GET" || !(request.headers.has("anthropic-version") || request.headers.has("x-api-key"))) return undefined;
        if (path === "/v1/models") return listModels(request, ctx.rt, await ctx.modelIds());
        if (path.startsWith("/v1/models/")) return getModel(request, ctx.rt, await ctx.modelIds());
        return undefined;
      },
    },
  ],
  endpoints: ["count_tokens"],
  errorPaths: [
    { priority: 30, owns: (_request, path) => /^\/(v1\/)?messages(\/|$)/.test(path), surface: anthropicMessages },
    {
      priority: 50,
      owns: (request, path) => request.headers.has("anthropic-version") || ((path === "/v1/models" || path.startsWith("/v1/models/")) && request.headers.has("x-api-key")),
      surface: anthropicMessages,
    },
  ],
  toolCallIds: anthropicToolCallIds,
  recordable: true,
};
