/**
 * Bytes ⇄ base64: the standard alphabet (images' `b64_json`, audio deltas, data URLs) and the URL-safe one without
 * padding (opaque tokens: compaction blobs, ephemeral keys, resumable upload URLs).
 */

/**
 * Bytes → standard base64, in slices so a large buffer never overflows the stack.
 * @example base64(Uint8Array.of(1, 2, 3)) // "AQID"
 */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Bytes → URL-safe base64 without padding.
 * @example base64url(Uint8Array.of(251, 255)) // "-_8"
 */
export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Base64 in either alphabet (padding optional) → bytes, or undefined when the text is not base64.
 * @example fromBase64("-_8") // Uint8Array [251, 255]
 */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
