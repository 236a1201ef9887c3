/**
 * The Node runtime's `RecordingStorage`: the recorded steps as plain JSON inside the session's data, so `--persist`
 * writes them with the rest of the session.
 */
import { frameBytes, type RecordedStep, type RecordingStorage } from "../../session/recording";

export class MemoryRecordingStorage implements RecordingStorage {
  private total: number;

  constructor(
    private readonly data: { recording?: RecordedStep[] },
    private readonly changed: () => void = () => {},
  ) {
    this.total = (data.recording ?? []).reduce((n, s) => n + frameBytes(s.frames), 0);
  }

  steps(): RecordedStep[] {
    return (this.data.recording ?? []).slice();
  }

  count(): number {
    return this.data.recording?.length ?? 0;
  }

  bytes(): number {
    return this.total;
  }

  add(step: RecordedStep, bytes: number): void {
    (this.data.recording ??= []).push(step);
    this.total += bytes;
    this.changed();
  }

  clear(): void {
    if (this.data.recording === undefined) return;
    delete this.data.recording;
    this.total = 0;
    this.changed();
  }
}
