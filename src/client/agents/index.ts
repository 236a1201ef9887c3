export { AGENT_CLIS, AGENT_MODEL, DEFAULT_AGENT_KEY, agentEnv, isAgentCli, type AgentCli, type AgentEnv, type AgentEnvOptions, type AgentFile } from "./profiles";
export { writeAgentEnv } from "./write";
