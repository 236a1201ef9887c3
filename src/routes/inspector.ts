/**
 * `GET /`: the inspector, a page over the admin API (scenarios, coverage, sessions with verify, each session's journal
 * as a timeline). Three static files; the Content-Security-Policy allows only same-origin scripts, styles and
 * requests, and the admin token never appears in what the server sends: the browser keeps it.
 */
import { APP_JS } from "./inspector/app-js";
import { PAGE_HTML } from "./inspector/page-html";
import { STYLE_CSS } from "./inspector/style-css";
import { Response } from "../http/web";

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
} as const;

const ASSETS: Record<string, { body: string; type: string }> = {
  "/inspector/app.js": { body: APP_JS, type: "text/javascript; charset=utf-8" },
  "/inspector/style.css": { body: STYLE_CSS, type: "text/css; charset=utf-8" },
};

export function inspectorPage(): Response {
  return new Response(PAGE_HTML, { headers: { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS } });
}

/** `/inspector/app.js` and `/inspector/style.css`; undefined for any other path. */
export function inspectorAsset(path: string): Response | undefined {
  const asset = ASSETS[path];
  return asset ? new Response(asset.body, { headers: { "content-type": asset.type, ...SECURITY_HEADERS } }) : undefined;
}
