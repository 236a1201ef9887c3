/**
 * The one size cap on a client's WebSocket message, the same on both runtimes: `ws`'s `maxPayload` on Node
 * (src/hosts/node/sockets.ts), a check before the protocol on Workers (src/hosts/workers/sockets.ts). A message
 * over it closes the socket with 1009 "message too big" (RFC 6455 7.4.1).
 */

/**
 * 32 MiB: the largest message Cloudflare's Workers accept on a WebSocket, and room for the largest a real provider's
 * socket takes (a Realtime `input_audio_buffer.append` carries up to 15 MiB of audio, ~20 MiB once base64-encoded).
 * A protocol whose messages carry what an HTTP body does takes HTTP's 10 MiB instead (`SocketSurface.maxMessageBytes`:
 * the Responses WebSocket mode, Gemini Live).
 */
export const MAX_SOCKET_MESSAGE_BYTES = 32 * 1024 * 1024;

/** The close for a message over the cap. */
export const MESSAGE_TOO_BIG = { code: 1009, reason: "message too big" } as const;

/**
 * Whether a message (a text's UTF-8 bytes, a binary's bytes) is over MAX_SOCKET_MESSAGE_BYTES; only a text that may
 * be over it is encoded to count.
 * @example overSocketCap("x".repeat(MAX_SOCKET_MESSAGE_BYTES + 1)) // true
 */
export function overSocketCap(message: string | ArrayBuffer, cap: number = MAX_SOCKET_MESSAGE_BYTES): boolean {
  if (typeof message !== "string") return message.byteLength > cap;
  if (message.length > cap) return true;
  if (message.length * 3 <= cap) return false;
  return new TextEncoder().encode(message).byteLength > cap;
}
