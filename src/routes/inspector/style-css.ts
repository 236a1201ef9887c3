/** The inspector's stylesheet, served as /inspector/style.css. */
export const STYLE_CSS = `
:root{--fg:#1d2329;--muted:#67717b;--line:#e2e6ea;--bg:#f6f7f9;--panel:#fff;--ok:#137333;--ok-bg:#e6f4ea;--bad:#b3261e;--bad-bg:#fce8e6;--warn:#8a5300;--warn-bg:#fef3e0;--accent:#1a5fb4}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f0f2f5;border-radius:6px;padding:.6rem .75rem;overflow:auto;max-height:28rem;margin:.3rem 0;white-space:pre-wrap;word-break:break-word}
h1{font-size:1.15rem;margin:0}h1 a{color:inherit}h2{font-size:1.1rem;margin:0}h3{font-size:.95rem;margin:1.2rem 0 .4rem}h4{font-size:.8rem;margin:.3rem 0;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.muted{color:var(--muted)}.small{font-size:12px}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.2rem;padding:.6rem 1.2rem;background:var(--panel);border-bottom:1px solid var(--line);position:sticky;top:0;z-index:2}
.auth{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
input,button{font:inherit}input[type=password]{padding:.3rem .5rem;border:1px solid var(--line);border-radius:6px}
button{padding:.3rem .8rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:6px;cursor:pointer}
button.danger{background:#fff;color:var(--bad);border-color:var(--bad)}button.danger:hover{background:var(--bad-bg)}
.check{display:inline-flex;gap:.3rem;align-items:center;color:var(--muted);font-size:12px}
.status{font-size:12px;color:var(--muted)}.status.error{color:var(--bad);font-weight:600}
.live{font-size:11px;font-weight:700;color:#fff;background:var(--ok);border-radius:10px;padding:.05rem .5rem;text-transform:uppercase}
.layout{display:grid;grid-template-columns:17rem 1fr;gap:1rem;padding:1rem 1.2rem;align-items:start}
@media (max-width:900px){.layout{grid-template-columns:1fr}}
.side{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.8rem}
.scenario-list{list-style:none;margin:.5rem 0 0;padding:0}
.side-h{margin-top:1rem}.delivery-row.failed td.answer{color:var(--bad);font-weight:600}
.scenario-item{padding:.45rem .5rem;border-radius:6px;border:1px solid transparent}
.scenario-item.selected{background:#eef3fb;border-color:#c9d8f0}
.scenario-link{font-weight:600;margin-right:.4rem}
.tag{display:inline-block;font-size:11px;padding:0 .4rem;border-radius:4px;background:#eceff3;color:#3c4650;white-space:nowrap}
.tag-kv{background:#e8f0fe;color:#1a4f9c}.tag-bundled{background:#f1f3f4;color:#5f6368}
.content{display:flex;flex-direction:column;gap:1rem;min-width:0}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1rem 1.1rem}
.panel-head{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .9rem}
.panel-head button{margin-left:auto}
.grid{border-collapse:collapse;width:100%}
.grid th,.grid td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
.grid th{font-size:12px;color:var(--muted);font-weight:600}
.grid .num{text-align:right;font-variant-numeric:tabular-nums}
.grid tr.unused td{background:#fffafa}.grid td.mark{width:1.5rem;font-weight:700}
.grid tr.ok td.mark{color:var(--ok)}.grid tr.unused td.mark{color:var(--bad)}.grid td.bad{color:var(--bad);font-weight:600}
.session-row.selected td{background:#eef3fb}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:.1rem .55rem;border-radius:10px}
.badge.pass{background:var(--ok-bg);color:var(--ok)}.badge.fail{background:var(--bad-bg);color:var(--bad)}
.summary{border-left:4px solid var(--line)}.summary.pass{border-color:var(--ok);background:var(--ok-bg)}.summary.fail{border-color:var(--bad);background:var(--bad-bg)}
.source{margin-top:1rem}.source summary{cursor:pointer;color:var(--muted)}
.timeline{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.4rem}
.entry{border:1px solid var(--line);border-left:4px solid var(--ok);border-radius:6px;padding:.4rem .6rem;background:#fff}
.entry.outcome-mismatch{border-left-color:var(--bad);background:#fffafa}.entry.outcome-failure{border-left-color:#e37400;background:#fffcf5}
.entry summary{cursor:pointer;display:flex;flex-wrap:wrap;gap:.3rem .7rem;align-items:baseline;list-style:none}
.entry summary::-webkit-details-marker{display:none}
.entry .seq{font-weight:700}.entry .step{font-weight:600}
.entry .outcome{font-size:12px;font-weight:700;text-transform:uppercase}
.entry.outcome-side_call{opacity:.55}.outcome-side_call .outcome{color:var(--muted)}
.entry.outcome-chaos{border-left-color:#8e44ad;background:#fbf7fd}.outcome-chaos .outcome{color:#8e44ad}
.outcome-response .outcome{color:var(--ok)}.outcome-mismatch .outcome{color:var(--bad)}.outcome-failure .outcome{color:var(--warn)}
.entry .http{font-size:12px;color:var(--muted)}
.entry .line{flex-basis:100%;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:13px}
.entry .ask{color:#3c4650}.entry .answer{color:var(--accent)}
.reasons{margin:.4rem 0;padding-left:1.2rem;color:var(--bad);font-size:13px}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:.8rem;margin-top:.4rem}
@media (max-width:1100px){.cols{grid-template-columns:1fr}}
`;
