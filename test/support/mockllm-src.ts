/** `mockllm` from source, for scripts under test that run the command (scripts/ci-action.sh via MOCKLLM_BIN). */
import { runCli } from "../../src/client/cli/main";

process.exitCode = await runCli(process.argv.slice(2));
