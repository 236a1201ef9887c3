export { scenario, ScenarioBuilder } from "./scenario";
export { step, StepBuilder } from "./step";
export { ScenarioValidationError, formatIssues } from "./errors";
export type * from "./types";
