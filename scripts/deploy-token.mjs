/**
 * What `npm run deploy` does with the Worker's ADMIN_TOKEN secret (issue 51): the token every team uses is replaced
 * only on purpose. Only a definite answer from `wrangler secret list` decides — the list itself (the secret there or
 * not), or "no such Worker" (a first deploy); any other failure (network, a token without read access) aborts the
 * deploy before anything is uploaded.
 */

/**
 * The state of the ADMIN_TOKEN secret from `wrangler secret list --format json`'s exit status and output.
 * @returns {{ state: "present" } | { state: "absent", why: string } | { state: "unknown", detail: string }}
 * @example secretState(0, '[{"name":"ADMIN_TOKEN","type":"secret_text"}]', "") // { state: "present" }
 */
export function secretState(status, stdout, stderr) {
  const out = `${stdout ?? ""}\n${stderr ?? ""}`;
  if (status === 0) {
    let list;
    try {
      list = JSON.parse(stdout);
    } catch {
      return { state: "unknown", detail: `wrangler secret list printed no JSON list:\n${out.trim()}` };
    }
    if (!Array.isArray(list)) return { state: "unknown", detail: `wrangler secret list printed no JSON list:\n${out.trim()}` };
    return list.some((s) => s?.name === "ADMIN_TOKEN") ? { state: "present" } : { state: "absent", why: "the Worker has no ADMIN_TOKEN secret" };
  }
  // wrangler 4: `Worker "name" not found.` (its own sentence for the API's 10007); older: the API's message and code.
  if (/Worker "[^"]*"(?: \(env: [^)]*\))? not found\./.test(out) || /This Worker does not exist on your account/.test(out) || /\[code: 10007\]/.test(out)) {
    return { state: "absent", why: "the Worker does not exist yet (a first deploy)" };
  }
  return { state: "unknown", detail: out.trim() || `wrangler secret list exited ${status ?? "on a signal"} without output` };
}

/**
 * What to upload: a token (and which) or none, or a reason to stop.
 * @param {{ state: string, why?: string, detail?: string }} secret secretState's answer
 * @param {{ given?: string, rotate: boolean, random: () => string }} opts $MOCKLLM_ADMIN_TOKEN, --rotate-admin-token
 * @returns {{ upload: string, line: string } | { upload: undefined, line: string } | { abort: string }}
 * @example tokenPlan({ state: "present" }, { rotate: false, random }) // { upload: undefined, line: "  admin token   unchanged …" }
 */
export function tokenPlan(secret, { given, rotate, random }) {
  const shown = (token) => `  admin token   ${token}   (keep it: it is not shown again; set MOCKLLM_ADMIN_TOKEN to choose your own)`;
  if (rotate) {
    const token = given || random();
    return { upload: token, line: given ? "  admin token   set to $MOCKLLM_ADMIN_TOKEN (--rotate-admin-token)" : shown(token) };
  }
  if (secret.state === "unknown") {
    return {
      abort: [
        "deploy: stopped before uploading anything — could not tell whether the Worker already has an ADMIN_TOKEN secret.",
        "`wrangler secret list` failed:",
        ...secret.detail.split("\n").map((l) => `  ${l}`),
        "A deploy that guessed would replace the admin token every team uses. Fix the cause (network, an API token",
        "that may read the Worker's settings, CLOUDFLARE_ACCOUNT_ID) and deploy again, or pass --rotate-admin-token to",
        "set a new token deliberately (MOCKLLM_ADMIN_TOKEN's, or a random one).",
      ].join("\n"),
    };
  }
  if (secret.state === "absent") {
    const token = given || random();
    return { upload: token, line: given ? `  admin token   set to $MOCKLLM_ADMIN_TOKEN (${secret.why})` : shown(token) };
  }
  return {
    upload: undefined,
    line: given
      ? "  admin token   unchanged — $MOCKLLM_ADMIN_TOKEN not uploaded: the Worker has one (--rotate-admin-token replaces it)"
      : "  admin token   unchanged (--rotate-admin-token replaces it: with $MOCKLLM_ADMIN_TOKEN if set, else a random one)",
  };
}
