// The environment every script runs wrangler with: no metrics, no error reports, no network look-ups, no banner
// (this project works offline; only the npm registry is reachable).
export const WRANGLER_QUIET_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

/** The process environment with the quiet settings on top. */
export function wranglerEnv() {
  return { ...process.env, ...WRANGLER_QUIET_ENV };
}
