/**
 * Amazon Bedrock Runtime: Converse and InvokeModel (Anthropic Messages bodies). Signed requests: not recorded.
 */
import type { Reply } from "../../../canonical/outcome";
import type { Endpoint } from "../../../canonical/request";
import { anthropicToolCallIds } from "../../anthropic/module";
import type { ProviderModule } from "../../registry/module";
import { bedrockConverse, bedrockInvoke } from "../index";
import { converseBlocks } from "../render-converse";

/** Converse ids are `tooluse_…`; InvokeModel's are Anthropic's. */
export function bedrockToolCallIds(reply: Reply, endpoint: Endpoint | undefined): (string | null)[] {
  if (endpoint === "converse") return converseBlocks(reply).flatMap((b) => (b.kind === "toolUse" ? [b.toolUseId] : []));
  return anthropicToolCallIds(reply);
}

export const bedrockModule: ProviderModule = {
  name: "bedrock",
  // One row for both clouds' Anthropic-and-more surfaces: their page is one.
  banner: [{ name: "Bedrock, Vertex", below: "", page: "providers/bedrock-and-vertex.md" }],
  surfaces: [bedrockConverse, bedrockInvoke],
  apiPrefixes: ["/model/"],
  errorPaths: [
    {
      priority: 20,
      // `/s/{scenario}/model/…` takes `model` for a session name when the rest is no known route: look at the whole path.
      owns: (request) => /^(\/s\/[^/]+(\/[^/]+)?)?\/model\//.test(new URL(request.url).pathname),
      surface: bedrockConverse,
    },
  ],
  toolCallIds: bedrockToolCallIds,
};
