/**
 * The Fetch API classes the shared code constructs (`new Response`, `new Headers`, `new Request`): the runtime's own.
 * The Node build and the Node suites swap this module for src/hosts/node/web.ts (bin/build-node.mjs,
 * vitest.config.ts), whose classes need no Node's bundled undici: reading the globals there loads it (~13 MB, ~35 ms
 * at a fresh server's first request; docs/performance.md). Only what constructs imports from here: the types stay the
 * globals'.
 */

import type { HeadersClass, HeadersType, RequestClass, RequestType, ResponseClass, ResponseType } from "./web-types";

const web = globalThis as unknown as { Headers: HeadersClass; Request: RequestClass; Response: ResponseClass };

export const Headers = web.Headers;
export type Headers = HeadersType;
export const Request = web.Request;
export type Request = RequestType;
export const Response = web.Response;
export type Response = ResponseType;
