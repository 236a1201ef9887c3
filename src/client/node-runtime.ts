/**
 * Loads the Node runtime for `startMockLLM` and `mockllm serve`. From the built package it is the bundle in
 * dist/node; from this repo's source, the TypeScript itself, so a stale build never stands in for the code under test.
 * Typed here by what the client uses, so the client build does not compile the runtime.
 */
export interface NodeServer {
  readonly url: string;
  /** Problems found in scenario files at start (each names the file and a JSON path). */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

export interface NodeServeOptions {
  port?: number;
  host?: string;
  adminToken?: string;
  scenarios?: readonly string[];
  watch?: boolean;
  persist?: string;
  vars?: Record<string, string | undefined>;
  log?: (line: string) => void;
  record?: { upstream: Record<string, string>; scenario?: string };
}

export interface NodeRuntime {
  startServer(opts: NodeServeOptions): Promise<NodeServer>;
  /** Parses `provider=URL` flags; throws a message naming the bad one. */
  parseUpstreams(flags: readonly string[]): Record<string, string>;
}

export async function loadNodeRuntime(): Promise<NodeRuntime> {
  const built = import.meta.url.includes("/dist/client/");
  const spec = built ? "../node/index.js" : "../hosts/node/index";
  return (await import(/* @vite-ignore */ spec)) as NodeRuntime;
}
