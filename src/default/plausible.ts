/**
 * Plausible values for the schema generator (src/default/schema-args.ts): where a property's name suggests what it
 * holds (`city`, `email`, `price`, `created_at`, …), a value of that kind instead of lorem words; and a string that
 * fits a simple `pattern`. Pure and deterministic: every choice is taken from a hash the caller passes in.
 */
import { linearRegex, type LinearRegex } from "../util/linear-regex";

/** The words of a property name, lower-case: `createdAt` / `created_at` / `Created-At` → ["created", "at"]. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

const FIRST = ["Ada", "Alan", "Grace", "Linus", "Margaret", "Tim", "Barbara", "Dennis"];
const LAST = ["Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Berners-Lee", "Liskov", "Ritchie"];
const CITIES = ["Paris", "London", "Tokyo", "Berlin", "Lisbon", "Toronto", "Sydney", "Madrid"];
const COUNTRIES = ["France", "United Kingdom", "Japan", "Germany", "Portugal", "Canada", "Australia", "Spain"];
const COUNTRY_CODES = ["FR", "GB", "JP", "DE", "PT", "CA", "AU", "ES"];
const CURRENCIES = ["EUR", "USD", "GBP", "JPY"];
const COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Labs", "Stark Industries"];
const STREETS = ["12 Rue de Rivoli", "221B Baker Street", "1 Infinite Loop", "742 Evergreen Terrace"];
const COLORS = ["red", "green", "blue", "orange", "purple"];
const STATUSES = ["active", "pending", "completed"];
const LANGUAGES = ["en", "fr", "de", "ja", "es"];
const TITLES = ["Quarterly report", "Release notes", "Meeting summary", "Project plan"];

const at = (list: readonly string[], h: number) => list[h % list.length]!;
const has = (words: string[], ...any: string[]) => any.some((w) => words.includes(w));
const last = (words: string[]) => words[words.length - 1] ?? "";

/** A `format` the property's name implies (`created_at` → date-time, `email` → email), for a string with none. */
export function impliedFormat(words: string[]): string | undefined {
  const end = last(words);
  if (end === "email" || end === "mail") return "email";
  if (has(words, "uuid", "guid")) return "uuid";
  if (end === "id" && words.length <= 2 && !has(words, "country", "language", "lang")) return "uuid";
  if (has(words, "url", "uri", "website", "homepage", "link", "href")) return "uri";
  if (end === "at" || has(words, "timestamp", "datetime")) return "date-time";
  if (end === "date" || has(words, "birthday", "dob")) return "date";
  return undefined;
}

/**
 * A string the property's name suggests (`city` → "Paris"), or undefined when it suggests nothing.
 * @example plausibleString(["first", "name"], 3) // "Linus"
 */
export function plausibleString(words: string[], h: number): string | undefined {
  if (words.length === 0) return undefined;
  const end = last(words);
  if (has(words, "first", "given") && has(words, "name")) return at(FIRST, h);
  if (has(words, "last", "family", "surname")) return at(LAST, h);
  if (has(words, "username", "handle", "login"))
    return `${at(FIRST, h).toLowerCase()}_${at(LAST, h >>> 3)
      .toLowerCase()
      .replace(/[^a-z]/g, "")}`;
  if (has(words, "company", "organization", "organisation", "employer", "vendor", "merchant")) return at(COMPANIES, h);
  if (end === "name" && words.length === 1) return `${at(FIRST, h)} ${at(LAST, h >>> 3)}`;
  if (has(words, "author", "customer", "person", "owner", "contact") && (end === "name" || words.length === 1)) return `${at(FIRST, h)} ${at(LAST, h >>> 3)}`;
  if (has(words, "city", "town")) return at(CITIES, h);
  if (has(words, "country") && has(words, "code")) return at(COUNTRY_CODES, h);
  if (has(words, "country", "nation")) return at(COUNTRIES, h);
  if (has(words, "currency")) return at(CURRENCIES, h);
  if (has(words, "language", "lang", "locale")) return at(LANGUAGES, h);
  if (has(words, "address", "street")) return at(STREETS, h);
  if (has(words, "zip", "postcode", "postal")) return String(10000 + (h % 89999));
  if (has(words, "phone", "telephone", "mobile")) return `+1-555-01${String(h % 100).padStart(2, "0")}`;
  if (has(words, "color", "colour")) return at(COLORS, h);
  if (end === "status" || end === "state") return at(STATUSES, h);
  if (end === "title" || end === "subject" || end === "headline") return at(TITLES, h);
  return undefined;
}

/**
 * A number the property's name suggests (`price` → 19.99, `age` → 34), or undefined. Only used where the schema sets
 * no bounds and no `multipleOf`.
 */
export function plausibleNumber(words: string[], h: number, integer: boolean): number | undefined {
  if (words.length === 0) return undefined;
  if (has(words, "price", "amount", "total", "cost", "subtotal", "balance", "salary", "fee")) return integer ? 10 + (h % 490) : 10 + (h % 490) + 0.5;
  if (has(words, "age")) return 18 + (h % 60);
  if (has(words, "year")) return 2020 + (h % 6);
  if (has(words, "count", "quantity", "qty", "number", "num")) return 1 + (h % 10);
  if (has(words, "rating", "stars")) return 1 + (h % 5);
  if (has(words, "percent", "percentage")) return h % 101;
  if (has(words, "lat", "latitude")) return integer ? 48 : 48.8566;
  if (has(words, "lon", "lng", "longitude")) return integer ? 2 : 2.3522;
  if (has(words, "score", "confidence", "probability") && !integer) return (h % 101) / 100;
  return undefined;
}

/** One step of a pattern: a set of characters (code points) to pick from, repeated `min`…`max` times. */
type Atom = { chars: string[]; min: number; max: number } | { group: Atom[]; min: number; max: number };

const DIGITS = "0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const WORD = `${LOWER}${UPPER}${DIGITS}_`;

/**
 * What an escape `\e` stands for, as characters to pick from: `\d \w \s`, or a character escaped for itself (not a
 * letter or digit); undefined for the rest (`\b`, `\D`, `\1`, `\u0041`, `\n`, …), which this small reader does not follow.
 */
function escaped(e: string | undefined): string | undefined {
  if (e === "d") return DIGITS;
  if (e === "w") return WORD;
  if (e === "s") return " ";
  return e !== undefined && !/[\p{L}\p{N}]/u.test(e) ? e : undefined;
}

function classChars(body: string): string[] | undefined {
  if (body.startsWith("^")) return undefined;
  const points = Array.from(body);
  const out: string[] = [];
  for (let i = 0; i < points.length; i++) {
    const c = points[i]!;
    if (c === "\\") {
      const e = escaped(points[++i]);
      if (e === undefined) return undefined;
      out.push(...e);
      continue;
    }
    if (points[i + 1] === "-" && i + 2 < points.length) {
      const from = c.codePointAt(0)!;
      const to = points[i + 2]!.codePointAt(0)!;
      for (let code = from; code <= to && code - from < 128; code++) out.push(String.fromCodePoint(code));
      i += 2;
      continue;
    }
    out.push(c);
  }
  return out.length === 0 ? undefined : out;
}

/** The atoms of `source` from `i` to the end or a `)`; undefined for what this small reader does not follow. */
function atoms(source: string, pos: { i: number }): Atom[] | undefined {
  const out: Atom[] = [];
  while (pos.i < source.length) {
    const c = source[pos.i]!;
    let atom: Atom;
    if (c === ")") return out;
    if (c === "|") {
      // Alternation: the first branch is kept, the rest skipped to the group's end.
      let depth = 0;
      for (; pos.i < source.length; pos.i++) {
        const d = source[pos.i]!;
        if (d === "\\") pos.i++;
        else if (d === "(") depth++;
        else if (d === ")") {
          if (depth === 0) return out;
          depth--;
        }
      }
      return out;
    }
    if (c === "^" || c === "$") {
      pos.i++;
      continue;
    }
    if (c === "(") {
      pos.i++;
      if (source.startsWith("?:", pos.i)) pos.i += 2;
      else if (source[pos.i] === "?") return undefined;
      const group = atoms(source, pos);
      if (group === undefined || source[pos.i] !== ")") return undefined;
      pos.i++;
      atom = { group, min: 1, max: 1 };
    } else if (c === "[") {
      const end = source.indexOf("]", pos.i + 2);
      if (end < 0) return undefined;
      const chars = classChars(source.slice(pos.i + 1, end));
      if (chars === undefined) return undefined;
      pos.i = end + 1;
      atom = { chars, min: 1, max: 1 };
    } else if (c === "\\") {
      const e = escaped(source[pos.i + 1]);
      if (e === undefined) return undefined;
      pos.i += 2;
      atom = { chars: Array.from(e), min: 1, max: 1 };
    } else if (c === ".") {
      pos.i++;
      atom = { chars: Array.from(LOWER), min: 1, max: 1 };
    } else if ("*+?{".includes(c)) return undefined;
    else {
      const point = String.fromCodePoint(source.codePointAt(pos.i)!); // a pair is one character, quantified whole
      pos.i += point.length;
      atom = { chars: [point], min: 1, max: 1 };
    }
    const q = source[pos.i];
    if (q === "*" || q === "+" || q === "?") {
      atom.min = q === "+" ? 1 : 0;
      atom.max = q === "?" ? 1 : atom.min + 2;
      pos.i++;
    } else if (q === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos.i));
      if (!m) return undefined;
      atom.min = Number(m[1]);
      atom.max = m[2] === undefined ? atom.min : m[3] === "" ? atom.min + 2 : Number(m[3]);
      pos.i += m[0].length;
    }
    if (source[pos.i] === "?") pos.i++;
    out.push(atom);
  }
  return out;
}

/** The longest string a pattern is followed to (`((a{64}){64}){64}` asks for 262,144): past it, no string. */
const MAX_PATTERN_CHARS = 4096;

/** Appends a string of `list` to `out`; false once `out` would pass MAX_PATTERN_CHARS. */
function emit(list: Atom[], h: number, out: string[]): boolean {
  for (const [k, atom] of list.entries()) {
    const n = Math.min(atom.max, atom.min + 1);
    for (let i = 0; i < n; i++) {
      if ("group" in atom) {
        if (!emit(atom.group, h + k + i, out)) return false;
      } else {
        if (out.length >= MAX_PATTERN_CHARS) return false;
        out.push(atom.chars[(h + k * 7 + i * 3) % atom.chars.length]!);
      }
    }
  }
  return true;
}

/**
 * A string matching `pattern` (best effort: literals, classes, `\d \w \s .`, groups, the first branch of `|`, the
 * quantifiers), checked against the pattern itself; undefined when it could not make one, or one within
 * MAX_PATTERN_CHARS. The pattern is the client's: the check runs on the linear-time engine (`^(.*a){25}x$` takes V8
 * over a second against its own 49 characters), within `work` steps when given; `compiled` keeps the programs of one
 * generation (a long pattern is kept by no cache across requests).
 * @example patternString("^[A-Z]{3}-\\d{2}$", 0) // "ABC-03"-like
 */
export function patternString(pattern: string, h: number, work?: { left: number }, compiled?: Map<string, LinearRegex | undefined>): string | undefined {
  if (work !== undefined) {
    work.left -= pattern.length; // reading it
    if (work.left < 0) return undefined;
  }
  let re: LinearRegex | undefined;
  if (compiled?.has(pattern)) re = compiled.get(pattern);
  else {
    re = linearRegex(pattern, "u");
    compiled?.set(pattern, re);
  }
  if (re === undefined) return undefined;
  const list = atoms(pattern, { i: 0 });
  if (list === undefined) return undefined;
  const out: string[] = [];
  if (!emit(list, h, out)) return undefined;
  const value = out.join("");
  return re.test(value, work) === true ? value : undefined;
}
