/** Raw header lists (name, value, name, …) as node:http's parser gives them, shared by the header tests. */

/** The `openai` SDK's 18 headers, as undici sends them (names in the SDK's own case and order). */
export const SDK_RAW_HEADERS: readonly string[] = [
  ["host", "127.0.0.1:8787"],
  ["connection", "keep-alive"],
  ["Accept", "application/json"],
  ["Content-Type", "application/json"],
  ["User-Agent", "OpenAI/JS 7.57.0"],
  ["X-Stainless-Lang", "js"],
  ["X-Stainless-Package-Version", "7.57.0"],
  ["X-Stainless-OS", "Linux"],
  ["X-Stainless-Arch", "x64"],
  ["X-Stainless-Runtime", "node"],
  ["X-Stainless-Runtime-Version", "v22.23.3"],
  ["Authorization", "Bearer sk-1"],
  ["X-Stainless-Retry-Count", "0"],
  ["x-stainless-timeout", "600"],
  ["accept-language", "*"],
  ["sec-fetch-mode", "cors"],
  ["accept-encoding", "gzip, deflate"],
  ["content-length", "468"],
].flat();
