/** mockllm's client toolkit: scenario builder, admin client, test helper. */
export * from "./builder/index";
export * from "./admin/index";
export * from "./testing/index";
export * from "./agents/index";
// The shell-tool table sits at the root (the `mockllm/builder` subpath keeps its exports as they were).
export { SHELL_TOOLS, shellCall, shellTool } from "./builder/shell";
export { parseScenarioDocument, type DocumentIssue, type DocumentResult } from "../scenario/document";
export type { Scenario } from "../scenario/schema";
