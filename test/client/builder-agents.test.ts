// The builder's agent-CLI helpers: each CLI's shell tool (s.shell, shellCall, SHELL_TOOLS) and sideCalls().
import { describe, expect, it } from "vitest";
import { SHELL_TOOLS, scenario, shellCall, shellTool, type ShellCli } from "../../src/client/index";

describe("s.shell", () => {
  const cases: [ShellCli, string, string][] = [
    ["codex", "exec_command", "cmd"],
    ["codex-0.94", "shell_command", "command"],
    ["gemini", "run_shell_command", "command"],
    ["qwen", "run_shell_command", "command"],
    ["opencode", "bash", "command"],
    ["claude", "Bash", "command"],
  ];

  it.each(cases)("%s: %s with %s", (cli, tool, argument) => {
    const doc = scenario("shell")
      .step("run", (s) => s.shell("ls -la", { cli }))
      .build();
    expect(doc.steps[0]).toEqual({ id: "run", respond: { toolCalls: [{ name: tool, arguments: { [argument]: "ls -la" } }] } });
    expect(shellTool(cli)).toBe(tool);
  });

  it("covers every CLI in the table", () => {
    expect(Object.keys(SHELL_TOOLS)).toEqual(cases.map(([cli]) => cli));
  });

  it("takes extra arguments and an id, and appends to earlier calls", () => {
    const doc = scenario("shell-extra")
      .step((s) => s.shell("npm test", { cli: "claude", args: { description: "Run the tests" }, id: "toolu_1" }).shell("ls", { cli: "claude" }))
      .build();
    expect(doc.steps[0]?.respond?.toolCalls).toEqual([
      { id: "toolu_1", name: "Bash", arguments: { command: "npm test", description: "Run the tests" } },
      { name: "Bash", arguments: { command: "ls" } },
    ]);
    expect(shellCall("pwd", { cli: "codex", args: { workdir: "/tmp" } })).toEqual({ name: "exec_command", arguments: { cmd: "pwd", workdir: "/tmp" } });
  });

  it("matchShellResult matches the CLI's tool result, and its output", () => {
    const doc = scenario("shell-result")
      .step((s) => s.matchShellResult({ cli: "opencode", output: { contains: "package.json" } }).text("Found it."))
      .step((s) => s.matchShellResult({ cli: "codex" }).text("Ran."))
      .build();
    expect(doc.steps.map((s) => s.match)).toEqual([{ toolResult: { name: "bash", content: { contains: "package.json" } } }, { toolResult: { name: "exec_command" } }]);
  });

  it("an unknown CLI throws, naming the known ones", () => {
    expect(() => shellCall("ls", { cli: "cursor" as ShellCli })).toThrow('shell: unknown CLI "cursor": one of codex, codex-0.94, gemini, qwen, opencode, claude');
  });
});

describe("sideCalls()", () => {
  it("collects presets (once each) and matchers across calls, after mcp in the document", () => {
    const doc = scenario("sides")
      .sideCalls("gemini", "opencode")
      .sideCalls({ preset: ["gemini", "claude"], match: [{ system: { contains: "Summarize" } }] })
      .step((s) => s.text("hi"))
      .build();
    expect(doc.sideCalls).toEqual({ preset: ["gemini", "opencode", "claude"], match: [{ system: { contains: "Summarize" } }] });
    expect(Object.keys(doc)).toEqual(["name", "steps", "sideCalls"]);
  });

  it("an unknown preset fails validation with its path", () => {
    expect(() =>
      scenario("bad")
        .sideCalls("cursor" as "gemini")
        .build(),
    ).toThrow(/sideCalls\.preset\[0\]/);
  });
});
