/** mockllm's client toolkit: scenario builder, admin client, test helper. */
export * from "./builder/index";
export * from "./admin/index";
export * from "./testing/index";
export * from "./agents/index";
export { parseScenarioDocument, type DocumentIssue, type DocumentResult } from "../scenario/document";
export type { Scenario } from "../scenario/schema";
