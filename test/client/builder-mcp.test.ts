/**
 * The builder's MCP methods: `.mcpTool`, `.mcpResult`, `.mcpError`, `.mcp` build the contract's `mcp` block.
 */
import { describe, expect, it } from "vitest";
import { scenario, ScenarioValidationError } from "../../src/client/index";

describe("scenario builder: MCP", () => {
  it("builds tools, ordered calls (string and full results, failures, errors) and settings", () => {
    const doc = scenario("mcp-weather")
      .step((s) => s.toolCall("get_weather", { city: "Paris" }))
      .mcp({ responseMode: "sse" })
      .mcpTool("get_weather", { description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } })
      .mcpResult({ tool: "get_weather", arguments: { city: "Paris" } }, "18C in {{args.city}}", { id: "paris", failuresBeforeSuccess: 1 })
      .mcpResult("get_weather", { content: [{ type: "text", text: "no such city" }], isError: true }, { consume: false })
      .mcpError("get_forecast", { code: -32000, message: "down" })
      .build();
    expect(doc).toStrictEqual({
      name: "mcp-weather",
      steps: [{ respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } }],
      mcp: {
        responseMode: "sse",
        tools: [{ name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } }],
        calls: [
          { id: "paris", match: { tool: "get_weather", arguments: { city: "Paris" } }, result: { content: [{ type: "text", text: "18C in {{args.city}}" }] }, failuresBeforeSuccess: 1 },
          { match: { tool: "get_weather" }, result: { content: [{ type: "text", text: "no such city" }], isError: true }, consume: false },
          { match: { tool: "get_forecast" }, error: { code: -32000, message: "down" } },
        ],
      },
    });
  });

  it("validates like the server: a duplicate call id fails with its path", () => {
    const b = scenario("dup").mcpResult("a", "x", { id: "same" }).mcpResult("b", "y", { id: "same" });
    expect(() => b.build()).toThrow(ScenarioValidationError);
    expect(() => b.build()).toThrow(/\$\.mcp\.calls\[1\]\.id: duplicate call id "same" \(also calls\[0\]\)/);
  });
});
