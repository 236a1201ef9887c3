/**
 * A namespace's webhooks on Workers: one Durable Object (`WEBHOOKS`, named by the namespace) holding the endpoints and
 * the waiting deliveries in SQLite (src/webhooks/core.ts), its alarm set for the earliest delivery. The alarm sends
 * what is due (src/webhooks/send.ts) and sets itself for the next; deliveries survive the object's eviction.
 */
import { DurableObject } from "cloudflare:workers";
import { WebhookCore, type EndpointRecord } from "../../webhooks/core";
import type { EventType } from "../../webhooks/events";
import type { WebhookHub } from "../../webhooks/hub";
import { deliveryLogger, queueEvent, report, sendDue, sendTest, type DeliveryLog, type Sent } from "../../webhooks/send";
import type { WebhookReport } from "../../webhooks/types";
import type { WorkerEnv } from "./env";
import { SqlKv } from "./sql-kv";

/** The object a namespace's webhooks live in (`""`: the default namespace). */
export function webhookObjectName(space: string): string {
  return `webhooks:${space}`;
}

export class WebhookObject extends DurableObject<WorkerEnv> implements WebhookHub {
  private readonly core: WebhookCore;
  private readonly log: (line: DeliveryLog) => void;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.core = new WebhookCore(new SqlKv(ctx.storage.sql));
    this.log = deliveryLogger(env, (line) => console.log(line));
  }

  async list(): Promise<EndpointRecord[]> {
    return this.core.endpoints();
  }
  async get(id: string): Promise<EndpointRecord | null> {
    return this.core.endpoint(id);
  }
  async create(r: EndpointRecord): Promise<boolean> {
    return this.core.create(r);
  }
  async update(r: EndpointRecord): Promise<boolean> {
    return this.core.update(r);
  }
  async delete(id: string): Promise<boolean> {
    return this.core.delete(id);
  }

  async test(id: string, type: EventType): Promise<Sent | null> {
    return sendTest(this.core, id, type);
  }

  async report(): Promise<WebhookReport> {
    return report(this.core);
  }

  async schedule(key: string, dueMs: number, type: EventType, dataId: string, data?: Record<string, unknown>): Promise<void> {
    if (queueEvent(this.core, key, dueMs, type, dataId, this.log, data)) await this.wake(dueMs);
  }

  async withdraw(key: string): Promise<void> {
    this.core.withdraw(key);
  }

  /** Forgets everything (a deleted namespace's webhooks). */
  async drop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Makes sure the alarm fires by `dueMs`. */
  private async wake(dueMs: number): Promise<void> {
    const set = await this.ctx.storage.getAlarm();
    if (set === null || dueMs < set) await this.ctx.storage.setAlarm(dueMs);
  }

  override async alarm(): Promise<void> {
    await sendDue(this.core, this.env, this.log);
    // Events scheduled while this run sent are in the core: its next due time covers them.
    const due = this.core.nextDue();
    if (due !== undefined) await this.wake(due);
  }
}
