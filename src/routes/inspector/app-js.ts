/**
 * The inspector's script, served as /inspector/app.js: plain browser JavaScript, no build step. It talks to the admin
 * API with the token the user typed (kept in sessionStorage, or localStorage when remembered) or a link brought
 * (`#scenario=…&session=…&key=…`: kept in sessionStorage, then dropped from the address bar), and builds every node
 * with textContent, so nothing from a scenario or a request is ever parsed as HTML.
 */
export const APP_JS = String.raw`"use strict";
(function () {
  var TOKEN_KEY = "mockllm-admin-token";
  var $ = function (id) { return document.getElementById(id); };
  var state = { scenarios: [], scenario: null, session: null, entries: [], lastSeq: 0, lastAt: null, live: 0, timer: 0, busy: false, verifyBySession: {}, webhooks: false };

  function h(tag, props) {
    var el = document.createElement(tag);
    if (props) for (var k in props) {
      if (k === "text") el.textContent = props[k];
      else if (k === "class") el.className = props[k];
      else if (k === "on") for (var ev in props.on) el.addEventListener(ev, props.on[ev]);
      else el.setAttribute(k, props[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === false) continue;
      el.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
    }
    return el;
  }

  function token() { return sessionStorage.getItem(TOKEN_KEY) || localStorage.getItem(TOKEN_KEY) || ""; }
  function saveToken(value, remember) {
    sessionStorage.setItem(TOKEN_KEY, value);
    if (remember) localStorage.setItem(TOKEN_KEY, value); else localStorage.removeItem(TOKEN_KEY);
  }

  function status(text, isError) {
    $("status").textContent = text || "";
    $("status").className = "status" + (isError ? " error" : "");
  }

  async function api(method, path) {
    var res;
    try {
      res = await fetch("/admin" + path, { method: method, headers: { authorization: "Bearer " + token(), accept: "application/json" }, cache: "no-store" });
    } catch (e) {
      status("server unreachable: " + e.message, true);
      throw e;
    }
    var body = await res.json().catch(function () { return undefined; });
    if (!res.ok) {
      var msg = body && body.error ? (body.error.message || body.error) : res.statusText;
      var code = body && body.error ? body.error.code : undefined;
      // A session that has not run is not an error to show: the session view says so (showNotRun).
      if (code !== "session_not_run") status(res.status + " " + msg + (res.status === 401 ? ": check the admin token or namespace key" : res.status === 403 ? " (this key's scope does not allow it)" : ""), true);
      var err = new Error(msg); err.status = res.status; err.code = code; throw err;
    }
    return body;
  }

  function enc(s) { return encodeURIComponent(s); }
  function sessionPath(scenario, session) { return "/sessions/" + enc(scenario) + "/" + enc(session); }
  function time(iso) { if (!iso) return "-"; var d = new Date(iso); return d.toLocaleTimeString() + "." + String(d.getMilliseconds()).padStart(3, "0"); }
  function ago(iso) {
    if (!iso) return "never";
    var s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    return s < 60 ? s + " s ago" : s < 3600 ? Math.round(s / 60) + " min ago" : new Date(iso).toLocaleString();
  }
  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n) + "\u2026" : s; }

  // ----- a link: #scenario=…&session=…&key=… (src/client/admin/inspector-link.ts). The fragment never reaches the
  // server; the key is kept as a typed one is (this tab's sessionStorage) and the address bar keeps only the route.
  function takeLink() {
    if (!/^#[a-z]+=/.test(location.hash)) return false;
    var p = new URLSearchParams(location.hash.slice(1));
    var key = p.get("key");
    if (key) sessionStorage.setItem(TOKEN_KEY, key);
    var scenario = p.get("scenario"), session = p.get("session");
    var rest = scenario ? "#/s/" + enc(scenario) + (session ? "/" + enc(session) : "") : "";
    history.replaceState(null, "", location.pathname + location.search + rest);
    if (key) { $("token").value = key; state.scenarios = []; state.verifyBySession = {}; }
    return true;
  }

  // ----- routing: #/s/{scenario}[/{session}], #/webhooks
  function parseHash() {
    if (location.hash === "#/webhooks") return { scenario: null, session: null, webhooks: true };
    var m = /^#\/s\/([^/]+)(?:\/([^/]+))?/.exec(location.hash);
    return m ? { scenario: decodeURIComponent(m[1]), session: m[2] ? decodeURIComponent(m[2]) : null } : { scenario: null, session: null };
  }
  function go(scenario, session) {
    location.hash = scenario ? "#/s/" + enc(scenario) + (session ? "/" + enc(session) : "") : "#/";
  }

  // ----- scenarios
  async function loadScenarios() {
    state.scenarios = await api("GET", "/scenarios");
    var list = $("scenarios");
    list.replaceChildren();
    $("scenarios-empty").hidden = state.scenarios.length > 0;
    if (state.scenarios.length === 0) $("scenarios-empty").textContent = "No scenarios yet: upload one with mockllm push.";
    state.scenarios.forEach(function (s) {
      var li = h("li", { class: "scenario-item" + (s.name === state.scenario ? " selected" : ""), "data-name": s.name },
        h("a", { href: "#/s/" + enc(s.name), class: "scenario-link" }, s.name),
        h("span", { class: "tag tag-" + s.source, title: s.source === "kv" ? "uploaded" : "bundled with the server" }, s.source === "kv" ? "uploaded" : "bundled"),
        h("div", { class: "muted small" }, "version " + s.version),
        s.description ? h("div", { class: "small" }, clip(s.description, 120)) : null);
      list.append(li);
    });
    status("");
  }

  async function showScenario(name) {
    var meta = state.scenarios.find(function (s) { return s.name === name; });
    $("welcome").hidden = true;
    $("scenario").hidden = false;
    $("scenario-title").textContent = name;
    $("scenario-meta").textContent = meta ? (meta.source === "kv" ? "uploaded" : "bundled") + " \u00b7 version " + meta.version : "";
    $("scenario-description").textContent = meta && meta.description ? meta.description : "";
    document.querySelectorAll(".scenario-item").forEach(function (li) { li.classList.toggle("selected", li.getAttribute("data-name") === name); });
    var doc = await api("GET", "/scenarios/" + enc(name));
    $("scenario-source").textContent = JSON.stringify(doc, null, 2);
    await refreshScenario();
  }

  async function refreshScenario() {
    var name = state.scenario;
    if (!name) return;
    var results = await Promise.all([api("GET", "/scenarios/" + enc(name) + "/coverage"), api("GET", "/sessions?scenario=" + enc(name))]);
    if (name !== state.scenario) return;
    var cov = results[0], sessions = results[1];
    var tbody = $("steps").tBodies[0];
    tbody.replaceChildren();
    cov.steps.forEach(function (s) {
      var used = s.sessions > 0;
      tbody.append(h("tr", { class: used ? "ok" : "unused", "data-step": s.id },
        h("td", { class: "mark", title: used ? "used" : "never used" }, used ? "\u2713" : "\u2717"),
        h("td", null, h("code", null, s.id)),
        h("td", { class: "small" }, s.match || ""),
        h("td", { class: "num" }, s.sessions), h("td", { class: "num" }, s.attempts),
        h("td", { class: "num" }, s.failures), h("td", { class: "num" + (s.mismatches > 0 ? " bad" : "") }, s.mismatches)));
    });
    var rows = $("sessions").tBodies[0];
    $("sessions-empty").hidden = sessions.length > 0;
    var verifies = await Promise.all(sessions.slice(0, 30).map(function (s) {
      var key = s.session + "|" + s.requests + "|" + s.lastAt;
      var cached = state.verifyBySession[name + "/" + s.session];
      if (cached && cached.key === key) return cached.result;
      return api("GET", sessionPath(name, s.session) + "/verify").then(function (v) {
        state.verifyBySession[name + "/" + s.session] = { key: key, result: v };
        return v;
      }).catch(function () { return null; });
    }));
    if (name !== state.scenario) return;
    rows.replaceChildren();
    sessions.forEach(function (s, i) {
      var v = verifies[i];
      rows.append(h("tr", { class: "session-row" + (s.session === state.session ? " selected" : ""), "data-session": s.session },
        h("td", null, h("a", { href: "#/s/" + enc(name) + "/" + enc(s.session) }, s.session)),
        h("td", null, v ? verifyBadge(v) : h("span", { class: "muted" }, "-")),
        h("td", { class: "num" }, s.requests),
        h("td", { title: s.lastAt || "" }, ago(s.lastAt))));
    });
  }

  function verifyBadge(v) {
    if (v.ok) return h("span", { class: "badge pass" }, "\u2713 verified");
    var bits = [];
    if (v.unusedSteps.length) bits.push(v.unusedSteps.length + " unused");
    if (v.mismatches.length) bits.push(v.mismatches.length + " mismatch" + (v.mismatches.length === 1 ? "" : "es"));
    if (v.pendingFailures.length) bits.push(v.pendingFailures.length + " pending failure" + (v.pendingFailures.length === 1 ? "" : "s"));
    return h("span", { class: "badge fail", title: v.summary }, "\u2717 " + bits.join(", "));
  }

  // ----- session
  async function showSession(scenario, session) {
    $("session").hidden = false;
    $("session-title").textContent = scenario + " / " + session;
    state.entries = []; state.lastSeq = 0; state.lastAt = null;
    $("journal").replaceChildren();
    document.querySelectorAll(".session-row").forEach(function (tr) { tr.classList.toggle("selected", tr.getAttribute("data-session") === session); });
    await refreshSession(true);
  }

  async function refreshSession(full) {
    var scenario = state.scenario, session = state.session;
    if (!scenario || !session) return false;
    var view;
    try { view = await api("GET", sessionPath(scenario, session)); } catch (e) {
      if (e.code !== "session_not_run") throw e;
      showNotRun(scenario, session);
      return false;
    }
    var changed = full || view.requests !== state.entries.length || view.lastAt !== state.lastAt;
    if (!changed) return false;
    var reload = full || view.requests < state.entries.length;
    var fresh = await api("GET", sessionPath(scenario, session) + "/requests" + (reload ? "" : "?since=" + state.lastSeq));
    if (!reload && fresh.length === 0 && view.requests !== state.entries.length) { fresh = await api("GET", sessionPath(scenario, session) + "/requests"); reload = true; }
    if (scenario !== state.scenario || session !== state.session) return false;
    if (reload) { state.entries = []; $("journal").replaceChildren(); }
    fresh.forEach(function (e) { state.entries.push(e); $("journal").append(entryNode(e)); });
    state.lastSeq = state.entries.length ? state.entries[state.entries.length - 1].seq : 0;
    state.lastAt = view.lastAt;
    $("journal-empty").hidden = state.entries.length > 0;
    $("journal-count").textContent = state.entries.length + " request" + (state.entries.length === 1 ? "" : "s");
    var v = await api("GET", sessionPath(scenario, session) + "/verify");
    $("verify-badge").replaceChildren(verifyBadge(v));
    $("verify-badge").className = "badge-holder " + (v.ok ? "pass" : "fail");
    $("verify-summary").textContent = v.summary;
    $("verify-summary").className = "summary " + (v.ok ? "pass" : "fail");
    return true;
  }

  // A session no request reached answers 404 (session_not_run): an empty journal and a plain note, polled on.
  function showNotRun(scenario, session) {
    state.entries = []; state.lastSeq = 0; state.lastAt = null;
    $("journal").replaceChildren();
    $("journal-empty").hidden = false;
    $("journal-count").textContent = "0 requests";
    $("verify-badge").replaceChildren(h("span", { class: "badge" }, "not run"));
    $("verify-badge").className = "badge-holder";
    $("verify-summary").textContent = "This session has not run: no request reached /s/" + scenario + "/" + session + " yet.";
    $("verify-summary").className = "summary";
  }

  function requestSummary(e) {
    var c = e.canonical;
    if (!c) return e.request && e.request.path ? e.request.method + " " + e.request.path : "";
    if (e.surface === "mcp") return "MCP tool call: " + c.tool + "(" + clip(JSON.stringify(c.arguments), 80) + ")";
    if (c.toolResults && c.toolResults.length) {
      return "tool results: " + c.toolResults.map(function (t) { return (t.name || "?") + " \u2192 " + clip(JSON.stringify(t.content), 60); }).join(", ");
    }
    var said = c.lastUserMessage !== null && c.lastUserMessage !== undefined ? "user: " + clip(JSON.stringify(c.lastUserMessage), 100) : "(no user message)";
    var structured = c.outputSchema ? "structured" + (c.outputSchema.name ? " " + c.outputSchema.name : "") + " \u00b7 " : "";
    return (c.compactionRequested ? "compaction requested \u00b7 " : c.compaction ? "compacted \u00b7 " : "") + structured + said;
  }

  function answerSummary(e) {
    var c = e.canonical;
    if (e.surface === "mcp" && c && c.error) return "\u2192 JSON-RPC error " + c.error.code + ": " + clip(JSON.stringify(c.error.message), 80);
    if (e.surface === "mcp" && c && c.result && c.result.isError) return "\u2192 isError: " + clip(JSON.stringify(c.answered && c.answered.text), 80);
    var a = c && c.answered;
    if (!a) return e.outcome === "failure" || e.outcome === "chaos" ? (e.reasons[0] || "scripted failure") : e.outcome === "mismatch" ? "no answer: mismatch error" : "";
    var parts = a.toolCalls.map(function (t) { return "\u2192 " + t.name + "(" + clip(t.arguments, 60) + ")"; });
    if (a.compaction) parts.unshift("\u2192 compaction: " + clip(JSON.stringify(a.compaction.summary), 80));
    if (a.text) parts.push("\u2192 " + clip(JSON.stringify(a.text), 80));
    return parts.join("  ");
  }

  function entryNode(e) {
    var details = h("details", { class: "entry outcome-" + e.outcome, "data-seq": e.seq });
    details.append(h("summary", null,
      h("span", { class: "seq" }, "#" + e.seq),
      h("span", { class: "time small muted" }, time(e.at)),
      h("span", { class: "tag" }, e.provider + " " + e.endpoint + (e.stream ? " \u00b7 stream" : "")),
      e.batch ? h("span", { class: "tag", title: "a line of batch " + e.batch.id }, "batch " + clip(e.batch.id, 16) + " \u00b7 " + clip(e.batch.customId, 32)) : null,
      h("span", { class: "small muted" }, e.surface === "mcp" ? "tool side" : "turn " + e.turn),
      h("span", { class: "step" }, e.step ? (e.outcome === "mismatch" ? "nearest " : "") + (e.surface === "mcp" ? "call " : "step ") + e.step : e.surface === "mcp" ? "no call" : "no step"),
      h("span", { class: "outcome" }, e.outcome === "chaos" && e.chaos ? "chaos " + e.chaos.kind : e.outcome),
      h("span", { class: "http" }, String(e.status)),
      h("div", { class: "line" }, h("span", { class: "ask" }, requestSummary(e)), h("span", { class: "answer" }, answerSummary(e)))));
    if (e.reasons && e.reasons.length) details.append(h("ul", { class: "reasons" }, ...e.reasons.map(function (r) { return h("li", null, r); })));
    if (e.outputSchema && !e.outputSchema.valid) {
      details.append(h("ul", { class: "reasons" }, ...e.outputSchema.errors.map(function (x) { return h("li", null, "schema violation at " + (x.path || "(the answer)") + ": " + x.message); })));
    }
    details.append(h("div", { class: "cols" },
      h("div", null, h("h4", null, "Request (secrets redacted)"), h("pre", null, JSON.stringify(e.request, null, 2))),
      h("div", null, h("h4", null, "What the engine saw and answered"), h("pre", null, JSON.stringify(e.canonical || null, null, 2)))));
    return details;
  }

  // ----- webhooks (GET /admin/webhooks): the credential's project's endpoints and its last delivery attempts
  async function refreshWebhooks() {
    var report = await api("GET", "/webhooks");
    var n = report.endpoints.length;
    $("webhooks-meta").textContent = n + (n === 1 ? " endpoint" : " endpoints") + " \u00b7 " + report.waiting + " waiting";
    $("endpoints-empty").hidden = n > 0;
    $("endpoints").tBodies[0].replaceChildren(...report.endpoints.map(function (e) {
      return h("tr", { class: "endpoint-row", "data-id": e.id },
        h("td", null, e.name), h("td", null, h("code", null, e.url)), h("td", { class: "small" }, e.event_types.join(", ")), h("td", { class: "muted small" }, e.id));
    }));
    $("deliveries-empty").hidden = report.deliveries.length > 0;
    $("deliveries").tBodies[0].replaceChildren(...report.deliveries.map(function (d) {
      var taken = d.status !== undefined && d.status >= 200 && d.status < 300;
      return h("tr", { class: "delivery-row" + (taken ? "" : " failed"), "data-delivery": d.deliveryId, "data-attempt": String(d.attempt) },
        h("td", { class: "small" }, time(d.at)),
        h("td", null, d.type, h("div", { class: "muted small" }, d.event)),
        h("td", { class: "small" }, h("code", null, d.url)),
        h("td", { class: "num" }, String(d.attempt)),
        h("td", { class: "answer" }, d.status !== undefined ? String(d.status) : d.error || "no answer"),
        h("td", { class: "small" }, taken ? "" : d.retry ? "tried again" : "given up"));
    }));
  }

  async function showWebhooks() {
    $("welcome").hidden = true; $("scenario").hidden = true; $("session").hidden = true;
    $("webhooks").hidden = false;
    document.querySelectorAll(".scenario-item").forEach(function (li) { li.classList.remove("selected"); });
    status("");
    await refreshWebhooks();
  }

  // ----- refresh loop: fast while requests keep arriving, slower when idle
  function schedule() {
    clearTimeout(state.timer);
    if (!$("auto").checked || !token()) return;
    var live = Date.now() - state.live < 10000;
    $("live").hidden = !live;
    state.timer = setTimeout(tick, live ? 700 : 2000);
  }
  // The scenario panel (coverage, sessions, verify per session) costs more: with a session open it is refreshed when
  // that session changed and every fifth tick otherwise. Nothing is polled while the tab is hidden.
  async function tick() {
    if (!state.busy && state.webhooks && !document.hidden) {
      state.busy = true;
      try { await refreshWebhooks(); } catch (e) { /* shown in the status line */ }
      state.busy = false;
    }
    if (!state.busy && state.scenario && !document.hidden) {
      state.busy = true;
      state.ticks = (state.ticks || 0) + 1;
      try {
        var grew = await refreshSession(false);
        if (grew) state.live = Date.now();
        if (grew || !state.session || state.ticks % 5 === 0) await refreshScenario();
      } catch (e) { /* shown in the status line */ }
      state.busy = false;
    }
    schedule();
  }

  async function route() {
    takeLink();
    var r = parseHash();
    state.scenario = r.scenario; state.session = r.session; state.webhooks = !!r.webhooks;
    if (!token()) return;
    try {
      if (!state.scenarios.length) await loadScenarios();
      if (!r.webhooks) $("webhooks").hidden = true;
      if (r.webhooks) { await showWebhooks(); schedule(); return; }
      if (!r.scenario) { $("scenario").hidden = true; $("session").hidden = true; $("welcome").hidden = false; return; }
      await showScenario(r.scenario);
      if (r.session) await showSession(r.scenario, r.session); else $("session").hidden = true;
    } catch (e) {
      // Shown in the status line. Nothing of the view before stays on screen: a scenario this credential cannot
      // see (another namespace's, a deleted one) must not look as if it showed the previous one's data.
      $("scenario").hidden = true; $("session").hidden = true; $("webhooks").hidden = true; $("welcome").hidden = false;
      state.entries = []; $("journal").replaceChildren(); $("sessions").tBodies[0].replaceChildren(); $("steps").tBodies[0].replaceChildren();
    }
    schedule();
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("token").value = token();
    $("remember").checked = !!localStorage.getItem(TOKEN_KEY);
    $("auth").addEventListener("submit", async function (ev) {
      ev.preventDefault();
      saveToken($("token").value.trim(), $("remember").checked);
      state.scenarios = [];
      await route();
    });
    $("reset").addEventListener("click", async function () {
      if (!state.scenario || !state.session) return;
      try {
        await api("POST", sessionPath(state.scenario, state.session) + "/reset");
        status("reset " + state.scenario + "/" + state.session);
        await refreshSession(true);
        await refreshScenario();
      } catch (e) { /* shown in the status line (a read key may not reset) */ }
    });
    $("auto").addEventListener("change", schedule);
    window.addEventListener("hashchange", route);
    route();
  });
})();
`;
