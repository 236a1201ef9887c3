/**
 * Namespaces on the Node runtime: the key registry in memory (written to `DIR/registry.json` by `--persist` on every
 * change), one NodeScenarioStore per namespace (its uploads over the bundled defaults), and deletion that removes a
 * namespace's sessions and uploads at once.
 */
import { dropPrefix, type ObjectStore } from "../../objects/store";
import { RegistryCore, MapStore } from "../../tenancy/registry-core";
import { sessionPrefix } from "../../tenancy/scope";
import type { Tenancy } from "../../tenancy/types";
import type { Persister } from "./persist";
import { NodeScenarioStore } from "./scenarios";
import type { NodeSessionStore } from "./sessions";
import type { NodeWebhooks } from "./webhooks";

/** The name a namespace upload is persisted under (`__ns/{space}/{name}`). */
export function persistedUploadName(space: string, name: string): string {
  return `${sessionPrefix(space)}${name}`;
}

/** `__ns/{space}/{name}` back into its parts; undefined for a default-namespace name. */
export function splitPersistedName(name: string): { space: string; name: string } | undefined {
  const m = /^__ns\/([^/]+)\/(.+)$/.exec(name);
  return m ? { space: m[1]!, name: m[2]! } : undefined;
}

export class NodeTenancy implements Tenancy {
  readonly registry: RegistryCore;
  private readonly stores = new Map<string, NodeScenarioStore>();
  /** The runtime's files and batches (`Runtime.objects`): a dropped namespace's are deleted with it. */
  objects?: ObjectStore;
  /** The runtime's webhooks: a dropped namespace's endpoints and waiting deliveries go with it. */
  webhooks?: NodeWebhooks;

  constructor(
    private readonly sessions: NodeSessionStore,
    private readonly persister: Persister | undefined,
    saved: Map<string, string> = new Map(),
  ) {
    const map = saved;
    this.registry = new RegistryCore(new MapStore(map, () => persister?.saveRegistry(map)));
  }

  scenarios(space: string): NodeScenarioStore {
    let store = this.stores.get(space);
    if (!store) {
      store = new NodeScenarioStore((name, stored) => this.persister?.saveUpload(persistedUploadName(space, name), stored?.raw));
      this.stores.set(space, store);
    }
    return store;
  }

  async dropSpace(space: string): Promise<void> {
    const store = this.stores.get(space);
    if (store) for (const s of await store.list()) if (s.source === "kv") await store.delete(s.name);
    this.stores.delete(space);
    for (const name of this.sessions.drop(sessionPrefix(space))) this.persister?.removeSession(name);
    if (this.objects) await dropPrefix(this.objects, sessionPrefix(space));
    this.webhooks?.drop(space);
  }
}
