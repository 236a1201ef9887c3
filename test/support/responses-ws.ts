/** The official `openai` SDK's Responses WebSocket (`ResponsesWS`), opened and driven turn by turn. */
import type OpenAI from "openai";
import { ResponsesWS } from "openai/resources/responses/ws";

export type WsEvent = { type: string; [k: string]: any };

/** A `ResponsesWS` for `client`, once its socket is open (rejects on the socket's error, e.g. a refused upgrade). */
export function openResponsesWS(client: OpenAI): Promise<ResponsesWS> {
  const ws = new ResponsesWS(client);
  return new Promise((resolve, reject) => {
    ws.socket.on("open", () => resolve(ws));
    ws.socket.on("error", reject);
  });
}

const TERMINAL = ["response.completed", "response.failed", "response.incomplete", "error"];

/** Sends one response.create and collects its events up to the terminal one. */
export function responsesTurn(ws: ResponsesWS, body: Record<string, unknown>): Promise<WsEvent[]> {
  return new Promise((resolve, reject) => {
    const events: WsEvent[] = [];
    const onEvent = (e: WsEvent) => {
      events.push(e);
      if (TERMINAL.includes(e.type)) {
        ws.off("event", onEvent);
        resolve(events);
      }
    };
    ws.on("event", onEvent);
    ws.on("error", () => {});
    try {
      ws.send({ type: "response.create", ...body } as never);
    } catch (e) {
      reject(e);
    }
  });
}
