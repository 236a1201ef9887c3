/**
 * What clients send to `POST /v1/moderations`. Loose: unknown fields pass.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first Moderations request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const moderationsWire = lazily(() => {
  const TextPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
  const ImagePartSchema = z.looseObject({ type: z.literal("image_url"), image_url: z.looseObject({ url: z.string().min(1) }) });
  const ModerationPartSchema = z.discriminatedUnion("type", [TextPartSchema, ImagePartSchema]);

  const ModerationsRequestSchema = z.looseObject({
    /** A string, strings, or one multimodal input as an array of text and image parts. */
    input: z.union([z.string(), z.array(z.string()), z.array(ModerationPartSchema)]),
    model: z.string().min(1).nullish(),
    stream: z.unknown().optional(),
  });
  return { ModerationPartSchema, ModerationsRequestSchema };
});
export type ModerationsBody = z.output<ReturnType<typeof moderationsWire>["ModerationsRequestSchema"]>;

/** One input the API classifies, with one result: its text (images left out) and which modalities it carries. */
export interface ModerationInput {
  text: string;
  hasText: boolean;
  hasImage: boolean;
}

/** The parsed request: the body, the model answered with, and its inputs. */
export interface ModerationsRequest {
  body: ModerationsBody;
  model: string;
  inputs: ModerationInput[];
}
