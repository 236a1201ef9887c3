// Source maps as the package ships them: every `sources` entry names a file the package itself ships (src/, scenarios/),
// relative to the map as it sits in the package, so a debugger, Node's --enable-source-maps and Vite find each one.
// Positions in bundled dependencies (zod, ws, itty-router, whose sources npm does not install) and in esbuild's virtual
// modules become unmapped: a stack frame there shows the bundle's own line instead of a path that does not exist.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** One mappings segment's VLQ fields, as deltas. */
function decodeSegment(text) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw new Error(`sourcemap: bad mappings character ${JSON.stringify(c)}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

function encodeValue(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/**
 * The mappings with source indexes moved by `keep` (old index → new index, or undefined: the segment becomes unmapped).
 * Decodes to absolute positions and encodes the result's deltas afresh.
 */
function remapMappings(mappings, keep) {
  const abs = [0, 0, 0, 0]; // source, line, column, name: running across the whole string
  const last = [0, 0, 0, 0]; // the same, as last written
  return mappings
    .split(";")
    .map((line) => {
      let col = 0;
      let lastCol = 0;
      const segs = [];
      for (const seg of line.split(",")) {
        if (seg === "") continue;
        const f = decodeSegment(seg);
        col += f[0];
        const fields = [col - lastCol];
        if (f.length >= 4) {
          for (let i = 0; i < 3; i++) abs[i] += f[i + 1];
          if (f.length === 5) abs[3] += f[4];
          const source = keep(abs[0]);
          if (source !== undefined) {
            fields.push(source - last[0], abs[1] - last[1], abs[2] - last[2]);
            last[0] = source;
            last[1] = abs[1];
            last[2] = abs[2];
            if (f.length === 5) {
              fields.push(abs[3] - last[3]);
              last[3] = abs[3];
            }
          }
        }
        lastCol = col;
        segs.push(fields.map(encodeValue).join(""));
      }
      return segs.join(",");
    })
    .join(";");
}

/**
 * Rewrites the map at `mapFile`, written into `outDir` (what ships as dist/), for the package at `root`: sources under one
 * of package.json's `files` entries (other than dist) stay, addressed from where the map sits in the package; others are
 * dropped with their positions; no sourceRoot (wrangler writes the build machine's absolute path there).
 */
export function packageSourceMap(mapFile, outDir, root) {
  const map = JSON.parse(readFileSync(mapFile, "utf8"));
  const shipped = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).files.filter((f) => f !== "dist");
  const inPackage = join("dist", relative(outDir, dirname(mapFile)));
  const sources = [];
  const contents = [];
  const moved = map.sources.map((source, i) => {
    if (/^[\w-]+:/.test(source)) return undefined; // esbuild's virtual modules (builtin-via-require:node:http, …)
    const file = resolve(dirname(mapFile), map.sourceRoot ?? "", source);
    const rel = relative(root, file).split(sep).join("/");
    if (!shipped.some((f) => rel === f || rel.startsWith(`${f}/`)) || rel.includes("/node_modules/")) return undefined;
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
    sources.push(relative(inPackage, rel).split(sep).join("/"));
    contents.push(map.sourcesContent?.[i] ?? null);
    return sources.length - 1;
  });
  const out = { ...map, sources, mappings: remapMappings(map.mappings, (i) => moved[i]) };
  delete out.sourceRoot;
  if (map.sourcesContent) out.sourcesContent = contents;
  writeFileSync(mapFile, JSON.stringify(out));
}

/** packageSourceMap for every .map under `dir`. */
export function packageSourceMaps(dir, outDir, root) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) packageSourceMaps(path, outDir, root);
    else if (name.endsWith(".map")) packageSourceMap(path, outDir, root);
  }
}
