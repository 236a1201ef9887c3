#!/usr/bin/env bash
# The GitHub Action's logic (action.yml, stop/action.yml), runnable anywhere bash, curl and node are:
#
#   ci-action.sh start   starts `mockllm serve` in the background, waits until it answers, writes the outputs
#                        url and admin-token to $GITHUB_OUTPUT and MOCKLLM_URL, MOCKLLM_ADMIN_TOKEN and the SDKs'
#                        base-URL variables to $GITHUB_ENV
#   ci-action.sh stop    prints the verify summary of every session, writes each session's journal and verify
#                        result and each scenario's JUnit coverage to the report directory, stops the server;
#                        exits 1 when a session failed verification (INPUT_FAIL_ON_UNVERIFIED=false: exits 0)
#
# Namespace per run (a shared server, e.g. the hosted Worker, or the local one): INPUT_URL (a running server: none is
# started; INPUT_ADMIN_TOKEN is its root token), INPUT_NAMESPACE (a name: `start` creates it with an admin and a run
# key — outputs namespace, admin-key, run-key; MOCKLLM_NAMESPACE, MOCKLLM_NAMESPACE_KEY and the SDKs' API-key
# variables set to the run key — and `stop` reports on its sessions, then deletes it unless INPUT_KEEP_NAMESPACE=true),
# INPUT_TTL (e.g. 1d: the namespace expires by itself even if `stop` never runs).
#
# Inputs (environment): INPUT_SCENARIOS (files or directories, one per line or space-separated), INPUT_PORT
# (default 8787; 0 = any free port), INPUT_ADMIN_TOKEN (default: random), INPUT_REPORT_DIR (default
# $RUNNER_TEMP/mockllm-report), MOCKLLM_BIN (the command that runs mockllm; default: node_modules/.bin/mockllm in
# the workspace, else this checkout's bin/mockllm.js, built by `npm install && npm run build` when dist/ is missing).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${MOCKLLM_STATE_DIR:-${RUNNER_TEMP:-/tmp}/mockllm-action}"
out() { [[ -n "${GITHUB_OUTPUT:-}" ]] && printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; return 0; }
setenv() { [[ -n "${GITHUB_ENV:-}" ]] && printf '%s=%s\n' "$1" "$2" >> "$GITHUB_ENV"; export "$1=$2"; }
die() { echo "::error::mockllm: $*" >&2; exit 1; }

mockllm_command() {
  if [[ -n "${MOCKLLM_BIN:-}" ]]; then echo "$MOCKLLM_BIN"; return; fi
  local local_bin="${GITHUB_WORKSPACE:-$PWD}/node_modules/.bin/mockllm"
  if [[ -x "$local_bin" ]]; then echo "$local_bin"; return; fi
  if [[ ! -f "$root/dist/client/cli/main.js" || ! -f "$root/dist/node/index.js" ]]; then
    echo "mockllm: installing and building $root (npm install, npm run build)" >&2
    (cd "$root" && npm install --no-audit --no-fund > /dev/null && npm run build > /dev/null) || die "npm install && npm run build in $root failed"
  fi
  echo "node $root/bin/mockllm.js"
}

start() {
  local token="${INPUT_ADMIN_TOKEN:-}" cmd url=""
  [[ -n "$token" ]] || token="mockllm-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  cmd="$(mockllm_command)"
  mkdir -p "$state"
  if [[ -n "${INPUT_URL:-}" ]]; then
    [[ -n "${INPUT_ADMIN_TOKEN:-}" ]] || die "url: a running server needs its admin-token"
    url="${INPUT_URL%/}"
    curl -fsS --retry 5 --retry-delay 1 --retry-connrefused "$url/healthz" > /dev/null || die "$url/healthz does not answer"
    rm -f "$state/pid"
    : > "$state/server.log"
  else
    start_server "$token" "$cmd"
    url="$(cat "$state/url")"
  fi
  printf '%s\n%s\n%s\n' "$url" "$token" "$cmd" > "$state/server"
  [[ -n "${GITHUB_ACTIONS:-}" ]] && echo "::add-mask::$token"
  out url "$url"
  out admin-token "$token"
  setenv MOCKLLM_URL "$url"
  setenv MOCKLLM_ADMIN_TOKEN "$token"
  setenv OPENAI_BASE_URL "$url/v1"
  setenv ANTHROPIC_BASE_URL "$url"
  setenv GOOGLE_GEMINI_BASE_URL "$url"
  setenv OLLAMA_HOST "$url"
  if [[ -n "${INPUT_NAMESPACE:-}" ]]; then
    create_namespace "$url" "$token" "$cmd"
    return
  fi
  # Any key works against the mock; a real one already set is left alone (journals redact keys).
  setenv OPENAI_API_KEY "${OPENAI_API_KEY:-sk-mockllm-test}"
  setenv ANTHROPIC_API_KEY "${ANTHROPIC_API_KEY:-sk-mockllm-test}"
  setenv GEMINI_API_KEY "${GEMINI_API_KEY:-mockllm-test}"
}

# `mockllm namespace create` on the server; its keys become the job's API keys (a run key selects the namespace).
create_namespace() {
  local url="$1" token="$2" cmd="$3" json ttl=() admin_key run_key
  [[ -n "${INPUT_TTL:-}" ]] && ttl=(--ttl "$INPUT_TTL")
  # shellcheck disable=SC2086 # MOCKLLM_BIN is a command line
  json="$($cmd namespace create "$INPUT_NAMESPACE" ${ttl[@]+"${ttl[@]}"} --json --url "$url" --token "$token")" || die "could not create namespace $INPUT_NAMESPACE on $url"
  admin_key="$(node -e 'console.log(JSON.parse(process.argv[1]).adminKey)' "$json")"
  run_key="$(node -e 'console.log(JSON.parse(process.argv[1]).runKey)' "$json")"
  if [[ -n "${GITHUB_ACTIONS:-}" ]]; then echo "::add-mask::$admin_key"; echo "::add-mask::$run_key"; fi
  printf '%s\n%s\n' "$INPUT_NAMESPACE" "$admin_key" > "$state/namespace"
  echo "mockllm: namespace $INPUT_NAMESPACE on $url$(node -e 'const e = JSON.parse(process.argv[1]).expiresAt; console.log(e ? `, expires ${e}` : "")' "$json")"
  out namespace "$INPUT_NAMESPACE"
  out admin-key "$admin_key"
  out run-key "$run_key"
  setenv MOCKLLM_NAMESPACE "$INPUT_NAMESPACE"
  setenv MOCKLLM_NAMESPACE_KEY "$admin_key"
  setenv MOCKLLM_RUN_KEY "$run_key"
  setenv OPENAI_API_KEY "$run_key"
  setenv ANTHROPIC_API_KEY "$run_key"
  setenv GEMINI_API_KEY "$run_key"
}

# `mockllm serve` in the background (its own process group), until it answers; its URL to $state/url.
start_server() {
  local token="$1" cmd="$2" port="${INPUT_PORT:-8787}" args=() url="" i
  for f in ${INPUT_SCENARIOS:-}; do args+=(--scenarios "$f"); done
  # Its own process group (setsid), so that stop ends npx and the node it runs together.
  local setsid=""
  command -v setsid > /dev/null && setsid=setsid
  # shellcheck disable=SC2086 # MOCKLLM_BIN is a command line
  : > "$state/server.log" # there before the child opens it, which may be after the loop below first reads it
  $setsid $cmd serve --port "$port" --admin-token "$token" --log-requests ${args[@]+"${args[@]}"} >> "$state/server.log" 2>&1 < /dev/null &
  echo $! > "$state/pid"
  for ((i = 0; i < 600; i++)); do
    url="$(sed -n 's/^mockllm is ready on \(http[^ ]*\).*/\1/p' "$state/server.log")"
    [[ -n "$url" ]] && break
    kill -0 "$(cat "$state/pid")" 2> /dev/null || { cat "$state/server.log" >&2; die "mockllm serve exited before it was ready"; }
    sleep 0.1
  done
  [[ -n "$url" ]] || { cat "$state/server.log" >&2; die "mockllm serve not ready after 60 s"; }
  curl -fsS --retry 20 --retry-delay 1 --retry-connrefused "$url/healthz" > /dev/null || die "$url/healthz does not answer"
  cat "$state/server.log"
  echo "$url" > "$state/url"
}

stop() {
  [[ -f "$state/server" ]] || die "no mockllm started by this job (run the action's start first)"
  local url token cmd report failed=0 scenario session
  { read -r url; read -r token; read -r cmd; } < "$state/server"
  local root_token="$token" namespace=""
  # A namespace run reports on the namespace's sessions: its admin key reads them.
  if [[ -f "$state/namespace" ]]; then { read -r namespace; read -r token; } < "$state/namespace"; fi
  report="${INPUT_REPORT_DIR:-${RUNNER_TEMP:-/tmp}/mockllm-report}"
  mkdir -p "$report/journals" "$report/verify" "$report/coverage"
  local auth=(-H "authorization: Bearer $token")
  curl -fsS "${auth[@]}" "$url/admin/sessions" > "$report/sessions.json" || die "GET $url/admin/sessions failed"
  while IFS=$'\t' read -r scenario session; do
    [[ -n "$scenario" ]] || continue
    mkdir -p "$report/journals/$scenario" "$report/verify/$scenario"
    curl -fsS "${auth[@]}" "$url/admin/sessions/$scenario/$session/requests" > "$report/journals/$scenario/$session.json"
    curl -fsS "${auth[@]}" "$url/admin/sessions/$scenario/$session/verify" > "$report/verify/$scenario/$session.json"
  done < <(node -e 'for (const s of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(`${s.scenario}\t${s.session}`)' < "$report/sessions.json")
  # Every summary (a failing one also as an error annotation), then the count (also to $state/failed); and
  # verify.xml, JUnit with one testcase per session, failing with its summary.
  node - "$report" "$state/failed" "${GITHUB_ACTIONS:-}" << 'EOF'
const fs = require("fs"), path = require("path");
const [report, failedFile, gha] = process.argv.slice(2);
const dir = path.join(report, "verify");
const xml = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
let failed = 0, total = 0, cases = [];
for (const scenario of fs.readdirSync(dir).sort()) {
  for (const file of fs.readdirSync(path.join(dir, scenario)).sort()) {
    const v = JSON.parse(fs.readFileSync(path.join(dir, scenario, file), "utf8"));
    total++;
    if (!v.ok) failed++;
    if (!v.ok && gha) console.log(`::error title=mockllm verify::${v.summary.split("\n")[0]}`);
    console.log(v.summary + (v.ok ? "" : "\n"));
    const name = xml(file.replace(/\.json$/, ""));
    cases.push(v.ok ? `    <testcase classname="mockllm.${xml(scenario)}" name="${name}"/>`
      : `    <testcase classname="mockllm.${xml(scenario)}" name="${name}">\n      <failure type="unverified" message="${xml(v.summary.split("\n")[0])}">${xml(v.summary)}</failure>\n    </testcase>`);
  }
}
console.log(`mockllm: ${total} session${total === 1 ? "" : "s"}, ${failed} failed verification`);
fs.writeFileSync(path.join(report, "verify.xml"), `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="mockllm verify" tests="${total}" failures="${failed}">
  <testsuite name="mockllm verify" tests="${total}" failures="${failed}">
${cases.join("\n")}
  </testsuite>
</testsuites>
`);
fs.writeFileSync(failedFile, String(failed));
EOF
  failed="$(cat "$state/failed")"
  for scenario in $(node -e 'console.log([...new Set(JSON.parse(require("fs").readFileSync(0, "utf8")).map((s) => s.scenario))].join(" "))' < "$report/sessions.json"); do
    # shellcheck disable=SC2086
    $cmd coverage "$scenario" --format junit --url "$url" --token "$token" > "$report/coverage/$scenario.xml"
    # shellcheck disable=SC2086
    [[ -n "${GITHUB_STEP_SUMMARY:-}" ]] && $cmd coverage "$scenario" --url "$url" --token "$token" >> "$GITHUB_STEP_SUMMARY"
  done
  if [[ -n "$namespace" && "${INPUT_KEEP_NAMESPACE:-false}" != true ]]; then
    curl -fsS -X DELETE -H "authorization: Bearer $root_token" "$url/admin/namespaces/$namespace" > /dev/null || echo "mockllm: could not delete namespace $namespace (it expires by its ttl, if it has one)" >&2
    echo "mockllm: namespace $namespace deleted"
  fi
  if [[ -f "$state/pid" ]]; then
    kill -TERM -- "-$(cat "$state/pid")" 2> /dev/null || kill -TERM "$(cat "$state/pid")" 2> /dev/null || true
    for _ in $(seq 100); do kill -0 "$(cat "$state/pid")" 2> /dev/null || break; sleep 0.1; done
  fi
  cp "$state/server.log" "$report/server.log"
  rm -f "$state/server" "$state/namespace" "$state/pid"
  out report-dir "$report"
  out failed "$failed"
  if [[ "$failed" != 0 && "${INPUT_FAIL_ON_UNVERIFIED:-true}" != false ]]; then
    echo "mockllm: $failed session(s) failed verification (report: $report)" >&2
    exit 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: ci-action.sh start|stop" >&2; exit 2 ;;
esac
