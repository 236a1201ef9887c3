/**
 * `RecordingStorage` over a Durable Object's SQLite. A step's frames are rows of their own, and a long frame is
 * stored in parts, so no value comes near SQLite's 2 MB row limit however long the recorded stream was; so is a long
 * step (its matcher quotes the client's last message, whatever its length).
 */
import type { RecordedStep, RecordingStorage } from "../../session/recording";
import { chunks, CHUNK_CHARS } from "./sql-chunks";
import { table, type SqlTables } from "./sql-tables";

const STEPS = table("rec_steps", "n INTEGER PRIMARY KEY, step TEXT NOT NULL, bytes INTEGER NOT NULL");
const FRAMES = table("rec_frames", "n INTEGER NOT NULL, i INTEGER NOT NULL, part INTEGER NOT NULL, at REAL NOT NULL, data TEXT NOT NULL, PRIMARY KEY (n, i, part)", "WITHOUT ROWID");
/** A long step's JSON, in parts; its `rec_steps.step` is "". */
const STEP_PARTS = table("rec_step_parts", "n INTEGER NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (n, part)", "WITHOUT ROWID");

export class SqlRecordingStorage implements RecordingStorage {
  /** @param tables the object's tables (SqlTables over its `ctx.storage.sql`) */
  constructor(private readonly tables: SqlTables) {}

  private stepJson(r: { n: number; step: string }): string {
    if (r.step !== "") return r.step;
    return this.tables
      .rows<{ text: string }>(STEP_PARTS, `SELECT text FROM rec_step_parts WHERE n = ? ORDER BY part`, r.n)
      .map((p) => p.text)
      .join("");
  }

  steps(): RecordedStep[] {
    const steps = this.tables.rows<{ n: number; step: string }>(STEPS, `SELECT n, step FROM rec_steps ORDER BY n`);
    const frames = new Map<number, { at: number; data: string }[]>();
    for (const r of this.tables.rows<{ n: number; i: number; at: number; data: string }>(FRAMES, `SELECT n, i, at, data FROM rec_frames ORDER BY n, i, part`)) {
      const list = frames.get(r.n) ?? [];
      const last = list[r.i];
      if (last) last.data += r.data;
      else list[r.i] = { at: r.at, data: r.data };
      frames.set(r.n, list);
    }
    return steps.map((r) => {
      const step = JSON.parse(this.stepJson(r)) as RecordedStep;
      return { ...step, frames: { ...step.frames, frames: frames.get(r.n) ?? [] } };
    });
  }

  count(): number {
    return this.tables.rows<{ c: number }>(STEPS, `SELECT COUNT(*) AS c FROM rec_steps`)[0]?.c ?? 0;
  }

  bytes(): number {
    return this.tables.rows<{ b: number | null }>(STEPS, `SELECT SUM(bytes) AS b FROM rec_steps`)[0]?.b ?? 0;
  }

  add(step: RecordedStep, bytes: number): void {
    const n = this.count() + 1;
    const stored = { ...step, frames: { ...step.frames, frames: [] } };
    const json = JSON.stringify(stored);
    const long = json.length > CHUNK_CHARS;
    this.tables.write(STEPS).exec(`INSERT INTO rec_steps (n, step, bytes) VALUES (?, ?, ?)`, n, long ? "" : json, bytes);
    if (long) chunks(json).forEach((text, part) => this.tables.write(STEP_PARTS).exec(`INSERT INTO rec_step_parts (n, part, text) VALUES (?, ?, ?)`, n, part, text));
    step.frames.frames.forEach((f, i) => {
      chunks(f.data).forEach((data, part) => this.tables.write(FRAMES).exec(`INSERT INTO rec_frames (n, i, part, at, data) VALUES (?, ?, ?, ?, ?)`, n, i, part, f.at, data));
    });
  }

  clear(): void {
    this.tables.drop(STEPS, FRAMES, STEP_PARTS);
  }
}
