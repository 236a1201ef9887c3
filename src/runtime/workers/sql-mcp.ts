/**
 * `McpStorage` over a Durable Object's SQLite: entries used, attempts per entry, open MCP sessions (oldest first).
 */
import type { McpCallState } from "../../mcp/calls";
import type { McpStorage } from "../../session/mcp";

export class SqlMcpStorage implements McpStorage {
  constructor(private readonly sql: SqlStorage) {
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS mcp_used (idx INTEGER PRIMARY KEY)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS mcp_attempts (idx INTEGER PRIMARY KEY, count INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS mcp_sessions (id TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
  }

  state(): McpCallState {
    const attempts: Record<string, number> = {};
    for (const r of this.sql.exec<{ idx: number; count: number }>(`SELECT idx, count FROM mcp_attempts`)) attempts[String(r.idx)] = r.count;
    return {
      used: this.sql
        .exec<{ idx: number }>(`SELECT idx FROM mcp_used`)
        .toArray()
        .map((r) => r.idx),
      attempts,
    };
  }

  bumpAttempt(index: number): void {
    this.sql.exec(`INSERT INTO mcp_attempts (idx, count) VALUES (?, 1) ON CONFLICT(idx) DO UPDATE SET count = count + 1`, index);
  }

  markUsed(index: number): void {
    this.sql.exec(`INSERT OR IGNORE INTO mcp_used (idx) VALUES (?)`, index);
  }

  open(id: string, limit: number): void {
    const n = this.sql.exec<{ n: number }>(`SELECT COALESCE(MAX(n), 0) + 1 AS n FROM mcp_sessions`).one().n;
    this.sql.exec(`INSERT OR REPLACE INTO mcp_sessions (id, n) VALUES (?, ?)`, id, n);
    this.sql.exec(`DELETE FROM mcp_sessions WHERE n <= ?`, n - limit);
  }

  isOpen(id: string): boolean {
    return this.sql.exec(`SELECT 1 FROM mcp_sessions WHERE id = ?`, id).toArray().length > 0;
  }

  close(id: string): boolean {
    if (!this.isOpen(id)) return false;
    this.sql.exec(`DELETE FROM mcp_sessions WHERE id = ?`, id);
    return true;
  }

  clear(): void {
    for (const table of ["mcp_used", "mcp_attempts", "mcp_sessions"]) this.sql.exec(`DROP TABLE IF EXISTS ${table}`);
    this.migrate();
  }
}
