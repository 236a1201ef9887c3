// The leading local peer, @copilotkit/aimock, with the same scripted answers as the mockllm bench scenario.
import { LLMock } from "@copilotkit/aimock";
const mock = new LLMock({ port: 0, host: "127.0.0.1" });
mock.onMessage("bench json", { content: "Hello from the bench." });
const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
mock.onMessage("bench stream", { content: words });
await mock.start();
console.log(mock.url);
