/**
 * Webhooks on the Node runtime: each namespace's core (src/webhooks/core.ts) over a Map, and one timer per namespace
 * set for its earliest waiting delivery (unref'd: it never keeps the process alive). In memory like the sessions, and
 * like them written with `--persist` (./persist.ts, `DIR/webhooks`): a restart keeps the endpoints, and deliveries
 * that were waiting are sent when due, as a Worker's alarm would send them.
 */
import { MapStore } from "../../tenancy/registry-core";
import type { RuntimeVars } from "../../runtime/types";
import { WebhookCore, type EndpointRecord } from "../../webhooks/core";
import type { EventType } from "../../webhooks/events";
import type { WebhookHub } from "../../webhooks/hub";
import { queueEvent, report, sendDue, sendTest, type DeliveryLog, type Sent } from "../../webhooks/send";
import type { WebhookReport } from "../../webhooks/types";

const DAY_MS = 86_400_000;

/** With `--persist`: the namespaces' entries read at start, and where a change (or a namespace's deletion) is written. */
export interface WebhooksPersistence {
  saved: Map<string, Map<string, string>>;
  save(space: string, entries: Map<string, string> | undefined): void;
}

class NodeWebhookHub implements WebhookHub {
  private readonly core: WebhookCore;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private running = false;
  private stopped = false;

  constructor(
    private readonly vars: RuntimeVars,
    private readonly log: ((line: DeliveryLog) => void) | undefined,
    store: MapStore,
  ) {
    this.core = new WebhookCore(store);
  }

  /** Sets the timer for what was waiting when the entries were saved (a restart with `--persist`). */
  resume(): void {
    const next = this.core.nextDue();
    if (next !== undefined) this.wake(next);
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
    if (queueEvent(this.core, key, dueMs, type, dataId, this.log, data)) this.wake(dueMs);
  }

  async withdraw(key: string): Promise<void> {
    this.core.withdraw(key);
  }

  /** Stops sending (a deleted namespace's): its timer is cleared and never set again. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Makes sure the timer fires by `dueMs`. */
  private wake(dueMs: number): void {
    if (this.stopped || this.running || dueMs >= this.timerDue) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerDue = dueMs;
    // At most a day at a time (a timer's delay past 2^31 - 1 ms fires at once); an early wake-up finds nothing due and sleeps again.
    this.timer = setTimeout(() => void this.run(), Math.min(DAY_MS, Math.max(0, dueMs - Date.now())));
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    this.running = true;
    let failed = false;
    try {
      await sendDue(this.core, this.vars, this.log);
    } catch (e) {
      // A timer's rejection would end the process: what failed is said, and what waits is tried a second later.
      failed = true;
      this.log?.({ event: "", type: "", endpoint: "", attempt: 0, error: `webhook deliveries failed: ${(e as Error).message}`, retry: true });
    } finally {
      this.running = false;
    }
    // Events scheduled while this run sent are in the core: its next due time covers them.
    const next = this.core.nextDue();
    if (next !== undefined) this.wake(failed ? Math.max(next, Date.now() + 1000) : next);
  }
}

/** Every namespace's webhooks, each made on first use; `drop` forgets a deleted namespace's. */
export class NodeWebhooks {
  private readonly hubs = new Map<string, NodeWebhookHub>();

  constructor(
    private readonly vars: RuntimeVars,
    private readonly log?: (line: DeliveryLog) => void,
    private readonly persistence?: WebhooksPersistence,
  ) {
    for (const [space, entries] of persistence?.saved ?? []) this.make(space, entries).resume();
  }

  hub(space: string): WebhookHub {
    return this.hubs.get(space) ?? this.make(space, new Map());
  }

  private make(space: string, entries: Map<string, string>): NodeWebhookHub {
    const save = this.persistence?.save;
    // A change that lands after the namespace was dropped (a send still in flight) is not written back.
    const changed = save ? () => this.hubs.get(space) === h && save(space, entries) : undefined;
    const h: NodeWebhookHub = new NodeWebhookHub(this.vars, this.log, new MapStore(entries, changed));
    this.hubs.set(space, h);
    return h;
  }

  /** Stops every namespace's sending (the server is stopping). */
  stopAll(): void {
    for (const h of this.hubs.values()) h.stop();
  }

  drop(space: string): void {
    this.hubs.get(space)?.stop();
    if (this.hubs.delete(space)) this.persistence?.save(space, undefined);
  }
}
