/**
 * The inspector's page: structure only. No inline script or style (the CSP allows same-origin files only) and no
 * secret: the admin token is typed into the page and kept in the browser's storage.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>mockllm inspector</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/inspector/style.css">
<script src="/inspector/app.js" defer></script>
</head>
<body>
<header class="bar">
  <h1><a href="#/">mockllm</a> <span class="muted">inspector</span></h1>
  <form id="auth" class="auth" autocomplete="off">
    <label>Admin token or key <input id="token" type="password" size="28" placeholder="ADMIN_TOKEN or mk_&hellip; key" spellcheck="false"></label>
    <label class="check"><input id="remember" type="checkbox"> remember on this browser</label>
    <button id="connect" type="submit">Load scenarios</button>
  </form>
  <label class="check live-toggle"><input id="auto" type="checkbox" checked> auto-refresh</label>
  <span id="live" class="live" hidden>live</span>
  <span id="status" class="status" role="status"></span>
</header>
<main class="layout">
  <nav class="side">
    <h2>Scenarios</h2>
    <p id="scenarios-empty" class="muted">Enter the admin token and load the scenarios.</p>
    <ul id="scenarios" class="scenario-list"></ul>
    <h2 class="side-h">Webhooks</h2>
    <p class="small"><a id="webhooks-link" href="#/webhooks">Endpoints and deliveries</a></p>
  </nav>
  <section class="content">
    <section id="scenario" class="panel" hidden>
      <div class="panel-head">
        <h2 id="scenario-title"></h2>
        <span id="scenario-meta" class="muted"></span>
      </div>
      <p id="scenario-description" class="muted"></p>
      <h3>Steps <span class="muted small">coverage across the scenario's sessions</span></h3>
      <table class="grid" id="steps">
        <thead><tr><th></th><th>step</th><th>matches</th><th class="num">sessions</th><th class="num">attempts</th><th class="num">failures</th><th class="num">mismatches</th></tr></thead>
        <tbody></tbody>
      </table>
      <h3>Sessions</h3>
      <p id="sessions-empty" class="muted" hidden>No session has sent a request yet.</p>
      <table class="grid" id="sessions">
        <thead><tr><th>session</th><th>verify</th><th class="num">requests</th><th>last request</th></tr></thead>
        <tbody></tbody>
      </table>
      <details class="source"><summary>Scenario document</summary><pre id="scenario-source"></pre></details>
    </section>
    <section id="session" class="panel" hidden>
      <div class="panel-head">
        <h2 id="session-title"></h2>
        <span id="verify-badge" class="badge"></span>
        <button id="reset" type="button" class="danger">Reset session</button>
      </div>
      <pre id="verify-summary" class="summary"></pre>
      <h3>Journal <span id="journal-count" class="muted small"></span></h3>
      <p id="journal-empty" class="muted" hidden>No requests yet. Point a client at this session and they appear here.</p>
      <ol id="journal" class="timeline"></ol>
    </section>
    <section id="webhooks" class="panel" hidden>
      <div class="panel-head">
        <h2>Webhooks</h2>
        <span id="webhooks-meta" class="muted"></span>
      </div>
      <h3>Endpoints</h3>
      <p id="endpoints-empty" class="muted" hidden>No endpoint: create one with <code>client.webhooks.create</code> (<code>POST /v1/webhook_endpoints</code>).</p>
      <table class="grid" id="endpoints">
        <thead><tr><th>name</th><th>url</th><th>events</th><th>id</th></tr></thead>
        <tbody></tbody>
      </table>
      <h3>Deliveries <span class="muted small">the last 100 attempts, newest first</span></h3>
      <p id="deliveries-empty" class="muted" hidden>Nothing sent yet.</p>
      <table class="grid" id="deliveries">
        <thead><tr><th>time</th><th>event</th><th>endpoint</th><th class="num">attempt</th><th>answer</th><th>next</th></tr></thead>
        <tbody></tbody>
      </table>
    </section>
    <section id="welcome" class="panel">
      <h2>What this shows</h2>
      <p>Every scenario the server knows, each step's coverage, the sessions that ran it and whether each did what the
      script says (verify), and each session's requests as a timeline: what was asked, which step answered, and why a
      request did not match.</p>
      <p class="muted">The token stays in this browser (session storage, or local storage when remembered) and is sent
      only to this server's <code>/admin</code> API. A link from <code>mockllm serve</code> or a failed verify signs in
      by itself: its key rides after the <code>#</code>, which the browser never sends, and is taken out of the address.</p>
    </section>
  </section>
</main>
</body>
</html>
`;
