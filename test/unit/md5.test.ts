/**
 * MD5 (src/util/md5.ts): RFC 1321's test suite, and the same digest as Node's `crypto` for any split of the bytes
 * (the upload check feeds it part by part).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Md5 } from "../../src/util/md5";

const text = (s: string) => new TextEncoder().encode(s);

describe("Md5", () => {
  it("answers RFC 1321's appendix A.5 vectors", () => {
    const vectors: [string, string][] = [
      ["", "d41d8cd98f00b204e9800998ecf8427e"],
      ["a", "0cc175b9c0f1b6a831c399e269772661"],
      ["abc", "900150983cd24fb0d6963f7d28e17f72"],
      ["message digest", "f96b697d7cb7938d525a2f31aaf161d0"],
      ["abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"],
      ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"],
      ["12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"],
    ];
    for (const [input, digest] of vectors) expect(new Md5().update(text(input)).hex()).toBe(digest);
  });

  it("gives Node's digest for every length around the block and padding edges, fed in any pieces", () => {
    const bytes = new Uint8Array(300);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) & 0xff;
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 128, 300]) {
      const whole = bytes.subarray(0, n);
      const want = createHash("md5").update(whole).digest("hex");
      expect(new Md5().update(whole).hex()).toBe(want);
      for (const step of [1, 3, 17, 64, 100]) {
        const h = new Md5();
        for (let at = 0; at < n; at += step) h.update(whole.subarray(at, at + step));
        expect(h.hex(), `${n} bytes in pieces of ${step}`).toBe(want);
      }
    }
  });

  it("refuses bytes after its digest", () => {
    const h = new Md5().update(text("x"));
    expect(h.hex()).toBe("9dd4e461268c8034f5c8564e155c67a6");
    expect(h.hex()).toBe("9dd4e461268c8034f5c8564e155c67a6");
    expect(() => h.update(text("y"))).toThrow("Md5: update after digest");
  });
});
