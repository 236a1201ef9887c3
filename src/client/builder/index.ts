export { scenario, ScenarioBuilder } from "./scenario";
export { step, StepBuilder } from "./step";
export type { ShellCli, ShellOptions } from "./shell";
export { ScenarioValidationError, formatIssues } from "./errors";
export type * from "./types";
