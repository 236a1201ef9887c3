export { startMockLLM, defaultWranglerConfig, type MockLLM, type StartMockLLMOptions, type AgentEnvForOptions } from "./start";
export { assertVerified, MockLLMVerifyError } from "../admin/verify";
