/** decodeURIComponent that keeps malformed escapes as they are (they then fail name validation). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
