import { startServer } from "/work/main/src/runtime/node/server";
const s = await startServer({ adminToken: "t" });
await fetch(`${s.url}/admin/scenarios/bench`, { method: "PUT", headers: { authorization: "Bearer t" }, body: JSON.stringify({ name: "bench", steps: [{ consume: false, respond: { text: "Hello from the bench." } }] }) });
console.log(s.url);
