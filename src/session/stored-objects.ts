/** A session object's stored objects (session/responses.ts), read and parsed: a damaged entry counts as absent. */
import { parsedObjects } from "../util/parsed-objects";
import type { StoredResponses } from "./types";

/** The stored object `id` of `kind`, parsed; undefined when absent (or damaged). */
export async function loadObject<T>(home: StoredResponses, kind: string, id: string): Promise<T | undefined> {
  const json = await home.objectById(kind, id);
  return json === null ? undefined : parsedObjects<T>([json])[0];
}

/** Every stored object of `kind`, oldest first, parsed. */
export async function loadObjects<T>(home: StoredResponses, kind: string): Promise<T[]> {
  return parsedObjects<T>((await home.listObjects(kind)).map((o) => o.json));
}
