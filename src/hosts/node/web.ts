/**
 * The Node runtime's `Headers`, `Request` and `Response`, swapped in for src/http/web.ts by the Node build and the
 * Node suites: the Fetch API the shared code uses, without loading Node's bundled undici (~13 MB and ~35 ms at a
 * fresh server's first request; the globals' getters load it). A fixed body (text, bytes, none) stays as it is until
 * someone asks for a stream, so ./transport.ts writes it in one call; a request's body is read straight off node:http.
 * Not the globals, and never installed as them: `startMockLLM()` runs beside users' own fetch code.
 */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { Readable } from "node:stream";
import type { HeadersClass, HeadersType, RequestClass, RequestType, ResponseClass, ResponseType } from "../../http/web-types";
import { concatBytes } from "../../util/bytes";
import { LightHeaders } from "./web-headers";

export { LightHeaders };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** A body as the shared code gives it: fixed (text or bytes), a web stream, or none. */
type FixedBody = string | Uint8Array | null;
type AnyBody = FixedBody | ReadableStream<Uint8Array>;

function unusable(): TypeError {
  return new TypeError("Body is unusable: Body has already been read");
}

function toBody(body: unknown): AnyBody {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof (body as ReadableStream).getReader === "function") return body as ReadableStream<Uint8Array>;
  if (body instanceof URLSearchParams) return body.toString();
  return String(body);
}

function streamOf(body: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  return new ReadableStream<Uint8Array>({
    start(c) {
      if (bytes.byteLength > 0) c.enqueue(bytes);
      c.close();
    },
  });
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

function copyOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function textOf(b: Uint8Array | string): string {
  return typeof b === "string" ? b : decoder.decode(b);
}

/** What Request and Response share: a body read once, as text, JSON, bytes or a stream. */
abstract class LightBody {
  #used = false;
  #stream: ReadableStream<Uint8Array> | null | undefined;

  /** The body as given, until a stream is asked for. */
  protected abstract fixed(): AnyBody;
  /** Reads the whole body (once). */
  protected abstract readAll(): Promise<Uint8Array | string>;

  /** Whether `body` was asked for (then it, not the fixed body, is what is written and read). */
  protected get streamed(): boolean {
    return this.#stream !== undefined;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream !== undefined) return this.#stream;
    const b = this.fixed();
    this.#stream = b === null ? null : typeof b === "string" || b instanceof Uint8Array ? streamOf(b) : b;
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#stream?.locked ?? false);
  }

  protected take(): Promise<Uint8Array | string> {
    if (this.bodyUsed) return Promise.reject(unusable());
    this.#used = true;
    if (this.#stream) return readStream(this.#stream);
    return this.readAll();
  }

  text(): Promise<string> {
    if (this.bodyUsed || this.#stream) return this.take().then(textOf);
    this.#used = true;
    return this.readText();
  }

  /** Reads the whole body (once) as text: `readAll`'s, decoded. */
  protected readText(): Promise<string> {
    return this.readAll().then(textOf);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.take();
    return copyOf(typeof b === "string" ? encoder.encode(b) : b);
  }
}

interface LightResponseInit {
  status?: number;
  statusText?: string;
  headers?: ConstructorParameters<typeof LightHeaders>[0];
}

export class LightResponse extends LightBody {
  readonly status: number;
  readonly statusText: string;
  readonly type = "default";
  readonly url = "";
  readonly redirected = false;
  readonly #body: AnyBody;
  /** The headers as given (a plain record is written as it is: its names' case and order), until `headers` is read. */
  #init: LightResponseInit["headers"];
  #headers: LightHeaders | undefined;

  constructor(body?: unknown, init?: LightResponseInit) {
    super();
    const status = init?.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    }
    this.status = status;
    this.statusText = init?.statusText ?? "";
    this.#body = toBody(body);
    if (this.#body !== null && NULL_BODY_STATUS.has(status)) throw new TypeError(`Response constructor: Invalid response status code ${status}`);
    this.#init = init?.headers;
    if (this.#init instanceof LightHeaders) this.#headers = new LightHeaders(this.#init);
  }

  static json(data: unknown, init?: LightResponseInit): LightResponse {
    const body = JSON.stringify(data);
    if (body === undefined) throw new TypeError("The data is not JSON serializable");
    const headers = new LightHeaders(init?.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new LightResponse(body, { status: init?.status ?? 200, statusText: init?.statusText, headers });
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get headers(): LightHeaders {
    this.#headers ??= new LightHeaders(this.#init ?? (this.#body === null ? undefined : { "content-type": "text/plain; charset=UTF-8" }));
    return this.#headers;
  }

  protected fixed(): AnyBody {
    return this.#body;
  }

  protected readAll(): Promise<Uint8Array | string> {
    const b = this.#body;
    if (b === null) return Promise.resolve("");
    if (typeof b === "string" || b instanceof Uint8Array) return Promise.resolve(b);
    return readStream(b);
  }

  /**
   * How ./respond.ts writes it: the fixed body (the stream instead, once one was asked for), and the headers as given
   * (a record as it is) or as a Headers object once read.
   */
  get wire(): { body: AnyBody; headers: LightResponseInit["headers"] | LightHeaders } {
    const body = this.streamed ? this.body : this.#body;
    return { body, headers: this.#headers ?? this.#init };
  }
}

type Incoming = IncomingMessage | Http2ServerRequest;

interface LightRequestInit {
  method?: string;
  headers?: ConstructorParameters<typeof LightHeaders>[0];
  body?: unknown;
  signal?: AbortSignal;
}

/** Reads a node:http request's body to its end, answered as `done` makes it of the bytes. */
function readIncoming<T>(incoming: Incoming, done: (bytes: Uint8Array) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = (fn: () => void) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      fn();
    };
    const onData = (c: Buffer) => void chunks.push(c);
    const onEnd = () => settle(() => resolve(done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))));
    const onError = (e: Error) => settle(() => reject(e));
    const onClose = () => {
      if (!incoming.readableEnded) settle(() => reject(new DOMException("The client closed the connection before its body arrived.", "AbortError")));
    };
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
    if (incoming.readableEnded) onEnd();
  });
}

export class LightRequest extends LightBody {
  readonly method: string;
  readonly url: string;
  #headers: LightHeaders | undefined;
  readonly #body: AnyBody;
  #incoming: Incoming | undefined;
  #signal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  /** Called once when `signal` is first read: the transport wires the client's disconnect to it. */
  #onSignal: ((abort: () => void) => void) | undefined;

  constructor(input: string | URL | LightRequest, init?: LightRequestInit, node?: { incoming: Incoming; onSignal: (abort: () => void) => void }) {
    super();
    if (node !== undefined) {
      // From ./transport.ts: `input` is the URL it built, `init.method` the parsed method; nothing to check.
      this.url = input as string;
      this.method = init!.method!;
      this.#incoming = node.incoming;
      this.#onSignal = node.onSignal;
      this.#body = null;
      return;
    }
    const from = input instanceof LightRequest ? input : undefined;
    this.url = from ? from.url : new URL(String(input)).href;
    this.method = init?.method ?? from?.method ?? "GET";
    this.#headers = init?.headers !== undefined ? new LightHeaders(init.headers) : from ? new LightHeaders(from.headers) : new LightHeaders();
    this.#body = toBody(init?.body);
    if (this.#body !== null && (this.method === "GET" || this.method === "HEAD")) throw new TypeError("Request with GET/HEAD method cannot have body.");
    this.#signal = init?.signal;
  }

  /** The request node:http parsed: headers made from its raw list when first read, the body read off the socket. */
  static fromIncoming(incoming: Incoming, method: string, url: string, onSignal: (abort: () => void) => void): LightRequest {
    return new LightRequest(url, { method }, { incoming, onSignal });
  }

  get headers(): LightHeaders {
    this.#headers ??= LightHeaders.fromRaw(this.#incoming?.rawHeaders ?? []);
    return this.#headers;
  }

  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    this.#controller = new AbortController();
    this.#signal = this.#controller.signal;
    const controller = this.#controller;
    this.#onSignal?.(() => {
      if (!controller.signal.aborted) controller.abort(new DOMException("The client closed the connection.", "AbortError"));
    });
    return this.#signal;
  }

  protected fixed(): AnyBody {
    if (this.#incoming === undefined) return this.#body;
    if (this.method === "GET" || this.method === "HEAD") return null;
    return Readable.toWeb(this.#incoming as Readable) as ReadableStream<Uint8Array>;
  }

  protected readAll(): Promise<Uint8Array | string> {
    if (this.#incoming !== undefined) {
      if (this.method === "GET" || this.method === "HEAD") return Promise.resolve("");
      return readIncoming(this.#incoming, (bytes) => bytes);
    }
    const b = this.#body;
    if (b === null) return Promise.resolve("");
    if (typeof b === "string" || b instanceof Uint8Array) return Promise.resolve(b);
    return readStream(b);
  }

  /** A body read off the socket is decoded as it ends: no second promise to decode it. */
  protected override readText(): Promise<string> {
    const incoming = this.#incoming;
    if (incoming === undefined || this.method === "GET" || this.method === "HEAD") return super.readText();
    return readIncoming(incoming, textOf);
  }
}

export const Headers = LightHeaders as unknown as HeadersClass;
export type Headers = HeadersType;
export const Request = LightRequest as unknown as RequestClass;
export type Request = RequestType;
export const Response = LightResponse as unknown as ResponseClass;
export type Response = ResponseType;
