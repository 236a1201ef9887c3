/**
 * `GET /`: a small HTML page over the admin API (scenarios, sessions, journal). The token stays in the browser.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mockllm inspector</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;max-width:70rem}
input,button{font:inherit;padding:.3rem .5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border-bottom:1px solid #ddd;text-align:left;padding:.3rem .5rem;vertical-align:top}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:30rem}.err{color:#b00}
</style></head><body>
<h1>mockllm</h1>
<p>Deterministic fake LLM. Admin token: <input id="token" type="password" size="40" placeholder="ADMIN_TOKEN">
<button id="load">Load scenarios</button> <span id="status"></span></p>
<table id="scenarios"><thead><tr><th>name</th><th>version</th><th>source</th><th>description</th></tr></thead><tbody></tbody></table>
<p>Session: <input id="scenario" placeholder="scenario"> / <input id="session" value="default">
<button id="state">State</button> <button id="journal">Journal</button> <button id="reset">Reset</button></p>
<pre id="out"></pre>
<script>
const $ = (id) => document.getElementById(id);
$("token").value = localStorage.getItem("mockllm-token") || "";
async function call(method, path) {
  localStorage.setItem("mockllm-token", $("token").value);
  const res = await fetch(path, { method, headers: { authorization: "Bearer " + $("token").value } });
  const body = await res.json().catch(() => ({}));
  $("status").textContent = res.ok ? "" : res.status + " " + (body.error?.message ?? "");
  $("status").className = res.ok ? "" : "err";
  return res.ok ? body : undefined;
}
function cell(text) { const td = document.createElement("td"); td.textContent = text ?? ""; return td; }
$("load").onclick = async () => {
  const list = await call("GET", "/admin/scenarios"); if (!list) return;
  const body = $("scenarios").tBodies[0]; body.replaceChildren();
  for (const s of list) {
    const tr = document.createElement("tr");
    tr.append(cell(s.name), cell(s.version), cell(s.source), cell(s.description));
    tr.onclick = () => { $("scenario").value = s.name; };
    body.append(tr);
  }
};
const sessionPath = () => "/admin/sessions/" + encodeURIComponent($("scenario").value) + "/" + encodeURIComponent($("session").value);
$("state").onclick = async () => { $("out").textContent = JSON.stringify(await call("GET", sessionPath()), null, 2); };
$("journal").onclick = async () => { $("out").textContent = JSON.stringify(await call("GET", sessionPath() + "/requests"), null, 2); };
$("reset").onclick = async () => { $("out").textContent = JSON.stringify(await call("POST", sessionPath() + "/reset"), null, 2); };
</script></body></html>`;

export function inspectorPage(): Response {
  return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
}
