/**
 * `GET /v1/images/files/{id}` (also under a `/s/…` prefix): the file a `url` answer points at, drawn again from its
 * id (picture.ts), so nothing is stored. Needs no API key, like the real API's signed URLs.
 */
import { jsonResponse } from "../../../http/json";
import { CONTENT_TYPES, encodePicture, pictureOf } from "./picture";
import { Response } from "../../../http/web";

export const IMAGE_FILES_PATH = "/v1/images/files/";

/**
 * The image file response for `path`, or undefined when `path` is not below IMAGE_FILES_PATH.
 * @example imageFileResponse("GET", "/v1/images/files/img-256x256-3366ff.png") // 200 image/png
 */
export function imageFileResponse(method: string, path: string): Response | undefined {
  if (!path.startsWith(IMAGE_FILES_PATH)) return undefined;
  const notFound = (status: number, message: string) => jsonResponse({ error: { message, type: "invalid_request_error", param: null, code: null } }, status);
  if (method !== "GET" && method !== "HEAD") return notFound(405, `Use GET for ${path}.`);
  const picture = pictureOf(path.slice(IMAGE_FILES_PATH.length));
  if (!picture) return notFound(404, `No such image file: ${path}.`);
  const bytes = encodePicture(picture);
  return new Response(method === "HEAD" ? null : bytes, {
    status: 200,
    headers: { "content-type": CONTENT_TYPES[picture.format], "content-length": String(bytes.length), "cache-control": "public, max-age=3600" },
  });
}
