/**
 * Bytes → standard base64 (images' `b64_json`, audio deltas), in slices so a large buffer never overflows the stack.
 * @example base64(Uint8Array.of(1, 2, 3)) // "AQID"
 */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
