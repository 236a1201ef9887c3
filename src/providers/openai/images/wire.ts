/**
 * What clients send to `POST /v1/images/generations` (JSON) and `/edits`, `/variations` (multipart, whose values
 * arrive as strings: numbers and booleans are read from them). Loose: unknown fields pass.
 */
import { z } from "zod";
import type { FileSummary } from "../../../http/multipart";
import { lazily } from "../../../util/memo";

/** Built on the first Images request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const imagesWire = lazily(() => {
  /** A number sent as JSON, or as a form field's digits. */
  const count = z.union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/, "expected an integer")
      .transform(Number),
  ]);
  const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((s) => s === "true")]);

  const ImagesBodySchema = z.looseObject({
    model: z.string().min(1).nullish(),
    prompt: z.string().nullish(),
    n: count.nullish(),
    size: z.string().nullish(),
    quality: z.string().nullish(),
    response_format: z.enum(["url", "b64_json"]).nullish(),
    output_format: z.enum(["png", "jpeg", "webp"]).nullish(),
    output_compression: count.nullish(),
    background: z.enum(["transparent", "opaque", "auto"]).nullish(),
    style: z.enum(["vivid", "natural"]).nullish(),
    stream: flag.nullish(),
    partial_images: count.nullish(),
    user: z.string().nullish(),
  });
  return { ImagesBodySchema };
});
export type ImagesBody = z.output<ReturnType<typeof imagesWire>["ImagesBodySchema"]>;

export type ImagesRoute = "generations" | "edits" | "variations";
/** The model families whose answers differ: DALL·E 2, DALL·E 3, and the GPT image models. */
export type ImageFamily = "dall-e-2" | "dall-e-3" | "gpt-image";
export type ImageFormat = "png" | "jpeg" | "webp";

/** The parsed request, every default applied. */
export interface ImagesRequest {
  route: ImagesRoute;
  body: ImagesBody;
  model: string;
  family: ImageFamily;
  prompt: string;
  n: number;
  width: number;
  height: number;
  /** `size` as answered (`1024x1024` for `auto`). */
  size: string;
  quality: string;
  background: "transparent" | "opaque";
  format: ImageFormat;
  responseFormat: "url" | "b64_json";
  partialImages: number;
  /** The uploaded images (edits, variations). */
  images: FileSummary[];
  /** Where `url` answers point: the mock's origin and the request's `/s/…` prefix. */
  fileBase: string;
}
