export { startMockLLM, defaultWranglerConfig, type MockLLM, type StartMockLLMOptions } from "./start";
export { assertVerified, MockLLMVerifyError } from "../admin/verify";
