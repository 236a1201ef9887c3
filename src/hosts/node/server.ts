/**
 * The Node runtime: the Runtime assembled in process (./runtime.ts: session state in memory, scenarios over files and
 * the bundled defaults) and served by node:http (./transport.ts). `mockllm serve` and `startMockLLM()` both start it
 * here.
 */
import type { Runtime } from "../../runtime/types";
import { exporterOf } from "../../turn/otel";
import { boundHeapGrowth } from "./heap-growth";
import { nodeRuntime, type AssemblyOptions } from "./runtime";
import { serveHttp, type ListenOptions } from "./transport";

export interface ServeOptions extends AssemblyOptions, ListenOptions {
  /** Where reload reports and problems go; default stderr. */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly runtime: Runtime;
  /** Problems found in scenario files at start (each names the file and a JSON path). */
  readonly problems: readonly string[];
  /** Stream writers still running (a client disconnect or close() stops them). */
  readonly openStreams: number;
  /** Stops accepting, ends open streams, writes pending state; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the Node runtime.
 * @example const server = await startServer({ port: 8787, adminToken: "t", scenarios: ["scenarios"] })
 */
export async function startServer(opts: ServeOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const assembled = await nodeRuntime(opts, log);
  // The OpenTelemetry exporter's settings read at start-up: one it cannot honour (grpc) is told now, not on a call.
  exporterOf(assembled.runtime.vars, log);
  const transport = await serveHttp(assembled.runtime, opts, log);
  const releaseHeap = boundHeapGrowth();
  let closing: Promise<void> | undefined;
  return {
    url: transport.url,
    port: transport.port,
    host: transport.host,
    runtime: assembled.runtime,
    problems: assembled.problems,
    get openStreams() {
      return transport.openStreams;
    },
    close() {
      closing ??= (async () => {
        assembled.stop();
        await transport.close();
        assembled.flush();
        releaseHeap();
      })();
      return closing;
    },
  };
}
