// The leading local peer, @copilotkit/aimock, serving the bench workload as fixtures. Prints its URL.
import { LLMock } from "@copilotkit/aimock";
import { JSON_TEXT, WORDS_200 } from "../workload.mjs";

const mock = new LLMock({ port: 0, host: "127.0.0.1", logLevel: "silent" });
mock.onMessage("bench json", { content: JSON_TEXT });
mock.onMessage("bench stream", { content: WORDS_200 });
mock.onToolResult("call_1", { content: "It is sunny in Paris." });
mock.onMessage("weather", { toolCalls: [{ id: "call_1", name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] });
await mock.start();
console.log(mock.url);
