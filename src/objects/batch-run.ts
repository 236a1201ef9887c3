/**
 * The skeleton every provider's batch runs on: its requests are the lines of a kept file; a read that finds the batch
 * due runs the next slice of lines (at most `max`, those run by earlier reads skipped) under `exclusive`, each line
 * writing its result to the batch's results files, whose writers stop at a checkpoint between reads. What a line runs
 * and writes, the counts and the record's shape stay with each provider's batches route.
 */
import type { FileRecord, FileStore, FileWriter, WriterState } from "./files";
import { exclusive, type RecordStore } from "./records";

/** A results file being written over several reads: its record and where its writer stopped. */
export interface ResultsFile {
  record: Omit<FileRecord, "bytes" | "parts">;
  state: WriterState;
}

/** One read's slice of a batch's lines. */
export interface Slice {
  /** The file whose lines are the batch's requests. */
  input: string;
  /** Lines run by earlier reads: skipped, then counted on with this slice's. */
  progress: { lines: number };
  /** Most lines this slice runs (`Infinity`: all that are left). */
  max: number;
  /** The results files; each one's `state` is its writer's checkpoint after the slice. */
  outputs: ResultsFile[];
  /** A line that holds no request: neither run nor counted. */
  blank: (text: string) => boolean;
  /** Runs one line and writes its result through `writers` (one per `outputs`, in the same order). */
  run: (text: string, writers: FileWriter[]) => Promise<void>;
}

/**
 * Runs the slice's lines (streamed from the input file) and checkpoints the results files; true when no line is left
 * (then the caller closes them: `files.writer(out.record, out.state).close()`).
 * @example const exhausted = await runSlice(files, { input, progress: p, max: 1000, outputs: [p.results], blank: (t) => t === "", run })
 */
export async function runSlice(files: FileStore, s: Slice): Promise<boolean> {
  const writers = s.outputs.map((o) => files.writer(o.record, o.state));
  let seen = 0;
  let ran = 0;
  let exhausted = true;
  for await (const text of files.lines(s.input)) {
    if (s.blank(text)) continue;
    if (seen++ < s.progress.lines) continue;
    if (ran === s.max) {
      exhausted = false;
      break;
    }
    ran++;
    await s.run(text, writers);
  }
  s.progress.lines += ran;
  for (const [i, w] of writers.entries()) s.outputs[i]!.state = await w.checkpoint();
  return exhausted;
}

/**
 * The batch `id` as it stands now: when `due(batch)` says its lines should run, one read runs the next slice (`run`,
 * which updates the record) under the lock `key` and keeps the record; a read meanwhile answers the record as kept.
 * `settled(batch)` re-checks the fresh record inside the lock (it may have ended or been cancelled meanwhile).
 */
export async function advanceBatch<B>(store: RecordStore<B>, key: string, id: string, due: (b: B) => boolean, settled: (b: B) => boolean, run: (b: B) => Promise<void>): Promise<B | null> {
  const b = await store.get(id);
  if (b === null || !due(b)) return b;
  return exclusive(
    key,
    async () => {
      const fresh = await store.get(id);
      if (fresh === null || settled(fresh)) return fresh;
      await run(fresh);
      await store.put(id, fresh);
      return fresh;
    },
    () => store.get(id),
  );
}
