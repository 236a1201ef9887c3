// Types of bench/workload.mjs, for the TypeScript benches (bench/handler.ts).
export const JSON_BODY: string;
export const JSON_HEADERS: { "content-type": string; authorization: string };
export const STREAM_BODY: string;
export const LONG_BODY: string;
export const LONG_MESSAGES_BODY: string;
export function loadRequest(load: string, kind: string, key?: string): { path: string; body: string; headers: Record<string, string> };
export const BURST_BODY: string;
export const WORDS_100: string;
export const WORDS_200: string;
export const JSON_TEXT: string;
export const BURST_PACING: { ttftMs: number; wordsPerSecond: number };
export const SCENARIOS: { name: string; steps: unknown[] }[];
export function paths(kind: string): { json: string; stream: string; toolsBase: string; burst: string };
export function uploadScenarios(url: string, token: string): Promise<void>;
