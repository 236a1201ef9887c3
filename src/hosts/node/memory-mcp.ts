/**
 * The Node runtime's `McpStorage`: plain JSON inside the session's data, so `--persist` writes it with the rest.
 */
import type { McpCallState } from "../../mcp/calls";
import type { McpStorage } from "../../session/mcp";

export interface MemoryMcpData {
  used: number[];
  attempts: Record<string, number>;
  /** Open MCP sessions, oldest first. */
  sessions: string[];
}

export class MemoryMcpStorage implements McpStorage {
  constructor(
    private readonly data: { mcp?: MemoryMcpData },
    private readonly changed: () => void = () => {},
  ) {}

  private get mcp(): MemoryMcpData {
    return (this.data.mcp ??= { used: [], attempts: {}, sessions: [] });
  }

  state(): McpCallState {
    return { used: this.data.mcp?.used ?? [], attempts: this.data.mcp?.attempts ?? {} };
  }

  bumpAttempt(index: number): void {
    const a = this.mcp.attempts;
    a[String(index)] = (a[String(index)] ?? 0) + 1;
    this.changed();
  }

  markUsed(index: number): void {
    if (!this.mcp.used.includes(index)) this.mcp.used.push(index);
    this.changed();
  }

  open(id: string, limit: number): void {
    const m = this.mcp;
    m.sessions = [...m.sessions.filter((s) => s !== id), id].slice(-limit);
    this.changed();
  }

  isOpen(id: string): boolean {
    return this.data.mcp?.sessions.includes(id) ?? false;
  }

  close(id: string): boolean {
    const m = this.data.mcp;
    if (!m?.sessions.includes(id)) return false;
    m.sessions = m.sessions.filter((s) => s !== id);
    this.changed();
    return true;
  }

  clear(): void {
    if (this.data.mcp === undefined) return;
    delete this.data.mcp;
    this.changed();
  }
}
