/**
 * Standard Webhooks signing, as OpenAI signs its deliveries and the SDKs' `webhooks.unwrap` checks them: the secret is
 * `whsec_` and base64 of 32 random bytes (the key is those bytes); the signature is `v1,` and base64 of
 * HMAC-SHA256(key, `{webhook-id}.{webhook-timestamp}.{body}`); while an old secret stays valid after a rotation, the
 * header carries both signatures, space-separated, the new one first.
 */
import { base64, fromBase64 } from "../util/base64";

/** A new signing secret: `whsec_` and base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${base64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The masked hint an endpoint shows in place of its secret: the prefix and the last four characters. */
export function secretHint(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/** The HMAC key a secret stands for: the bytes after `whsec_` (any other secret is keyed by its UTF-8 bytes, as the SDKs read one). */
function keyBytes(secret: string): Uint8Array {
  const decoded = secret.startsWith("whsec_") ? fromBase64(secret.slice("whsec_".length)) : undefined;
  return decoded ?? new TextEncoder().encode(secret);
}

/** `v1,{base64 HMAC}` of one delivery attempt under `secret`. */
export async function signature(secret: string, webhookId: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", keyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${webhookId}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/**
 * The `webhook-signature` header: one signature per secret still valid, space-separated.
 * @example await signatureHeader(["whsec_…"], "wh_…", 1750287078, body) // "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
 */
export async function signatureHeader(secrets: string[], webhookId: string, timestamp: number, body: string): Promise<string> {
  return (await Promise.all(secrets.map((s) => signature(s, webhookId, timestamp, body)))).join(" ");
}
