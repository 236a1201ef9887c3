/**
 * CRC-32 (IEEE 802.3): the checksum zip, gzip, PNG chunks and AWS event-stream frames carry.
 */

let table: Uint32Array | undefined;

/**
 * CRC-32 (IEEE 802.3, the polynomial zip and gzip use) of `bytes`, continued from `crc`, the CRC of what came before.
 * @example crc32(new TextEncoder().encode("123456789")) // 0xcbf43926
 */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
