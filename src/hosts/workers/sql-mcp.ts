/**
 * `McpStorage` over a Durable Object's SQLite: entries used, attempts per entry, open MCP sessions (oldest first).
 */
import type { McpCallState } from "../../mcp/calls";
import type { McpStorage } from "../../session/mcp";
import { table, type SqlTables } from "./sql-tables";

const USED = table("mcp_used", "idx INTEGER PRIMARY KEY");
const ATTEMPTS = table("mcp_attempts", "idx INTEGER PRIMARY KEY, count INTEGER NOT NULL");
const SESSIONS = table("mcp_sessions", "id TEXT PRIMARY KEY, n INTEGER NOT NULL", "WITHOUT ROWID");

export class SqlMcpStorage implements McpStorage {
  /** @param tables the object's tables (SqlTables over its `ctx.storage.sql`) */
  constructor(private readonly tables: SqlTables) {}

  state(): McpCallState {
    const attempts: Record<string, number> = {};
    for (const r of this.tables.rows<{ idx: number; count: number }>(ATTEMPTS, `SELECT idx, count FROM mcp_attempts`)) attempts[String(r.idx)] = r.count;
    return { used: this.tables.rows<{ idx: number }>(USED, `SELECT idx FROM mcp_used`).map((r) => r.idx), attempts };
  }

  bumpAttempt(index: number): void {
    this.tables.write(ATTEMPTS).exec(`INSERT INTO mcp_attempts (idx, count) VALUES (?, 1) ON CONFLICT(idx) DO UPDATE SET count = count + 1`, index);
  }

  markUsed(index: number): void {
    this.tables.write(USED).exec(`INSERT OR IGNORE INTO mcp_used (idx) VALUES (?)`, index);
  }

  open(id: string, limit: number): void {
    const sql = this.tables.write(SESSIONS);
    const n = sql.exec<{ n: number }>(`SELECT COALESCE(MAX(n), 0) + 1 AS n FROM mcp_sessions`).one().n;
    sql.exec(`INSERT OR REPLACE INTO mcp_sessions (id, n) VALUES (?, ?)`, id, n);
    sql.exec(`DELETE FROM mcp_sessions WHERE n <= ?`, n - limit);
  }

  isOpen(id: string): boolean {
    return this.tables.rows(SESSIONS, `SELECT 1 AS one FROM mcp_sessions WHERE id = ?`, id).length > 0;
  }

  close(id: string): boolean {
    if (!this.isOpen(id)) return false;
    this.tables.change(SESSIONS, `DELETE FROM mcp_sessions WHERE id = ?`, id);
    return true;
  }

  clear(): void {
    this.tables.drop(USED, ATTEMPTS, SESSIONS);
  }
}
