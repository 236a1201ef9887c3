export { startMockLLM, defaultWranglerConfig, type MockLLM, type StartMockLLMOptions } from "./start";
