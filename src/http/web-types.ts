/** The runtime's Fetch classes as types, named here where the globals are not shadowed (./web.ts re-exports them). */
export type HeadersClass = typeof Headers;
export type HeadersType = Headers;
export type RequestClass = typeof Request;
export type RequestType = Request;
export type ResponseClass = typeof Response;
export type ResponseType = Response;
