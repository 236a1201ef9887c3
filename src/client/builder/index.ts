export { scenario, ScenarioBuilder } from "./scenario";
export { step, StepBuilder } from "./step";
export { SHELL_TOOLS, shellCall, shellTool, type ShellCli, type ShellOptions } from "./shell";
export { ScenarioValidationError, formatIssues } from "./errors";
export type * from "./types";
