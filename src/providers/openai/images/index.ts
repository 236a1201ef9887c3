import type { ProviderSurface } from "../../types";
import { apiError } from "../../../http/errors";
import { readJsonBody } from "../../../http/body";
import { readFormBody } from "../../../http/multipart";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseImagesRequest } from "./parse";
import { renderImagesEvents, renderImagesJson, renderImagesStreamError } from "./render";
import { renderImagesPromptBlock } from "./safety";
import type { ImagesRequest } from "./wire";

export { imageFileResponse } from "./files";

/** Largest multipart upload read (several images); a single DALL·E 2 image must be under 4 MB (parse.ts). */
export const MAX_IMAGE_FORM_BYTES = 32 * 1024 * 1024;

/** OpenAI Images: `POST /v1/images/generations` (JSON), `/edits` and `/variations` (multipart, or JSON). */
export const openaiImages: ProviderSurface<ImagesRequest> = {
  provider: "openai",
  endpoint: "images",
  paths: ["/v1/images/generations", "/v1/images/edits", "/v1/images/variations", "/images/generations", "/images/edits", "/images/variations"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  readBody: (request) =>
    /^\s*multipart\//i.test(request.headers.get("content-type") ?? "")
      ? readFormBody(request, MAX_IMAGE_FORM_BYTES, () => apiError("payload_too_large", `Request body is larger than ${MAX_IMAGE_FORM_BYTES} bytes.`))
      : readJsonBody(request),
  parse: parseImagesRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderImagesJson,
  renderEvents: renderImagesEvents,
  renderStreamError: renderImagesStreamError,
  renderPromptBlock: renderImagesPromptBlock,
  blocksCompletion: true,
};
