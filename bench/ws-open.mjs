// Opens a WebSocket to a mockllm socket route as the socket benches do (bench/ws-scale.mjs, bench/scale-servers.mjs):
// a Bearer key, no permessage-deflate; rejects on an error or a refused upgrade, naming its status.
import WebSocket from "ws";

export function openSocket(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: "Bearer sk-bench" }, perMessageDeflate: false });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}
