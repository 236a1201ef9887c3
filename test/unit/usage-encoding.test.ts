/** Which encoding counts a model's usage (src/providers/openai/usage/count.ts; docs/reference/usage.md). */
import { describe, expect, it } from "vitest";
import { encodingFor } from "../../src/providers/openai/usage/count";

describe("encodingFor", () => {
  it("cl100k_base for GPT-4, GPT-3.5 and the embedding models; o200k_base for the rest and unknown models", () => {
    const models = ["gpt-4", "gpt-4-0613", "gpt-4-32k", "gpt-4-turbo", "gpt-3.5-turbo", "gpt-3.5-turbo-0125", "text-embedding-3-small", "text-embedding-ada-002"];
    const others = ["gpt-4o", "gpt-4o-mini", "chatgpt-4o-latest", "gpt-4.1", "gpt-4.1-nano", "gpt-4.5-preview", "gpt-5", "gpt-5-mini", "o1", "o3-mini", "o4-mini", "prod-4o", "my-deployment"];
    expect(models.map(encodingFor)).toEqual(models.map(() => "cl100k_base"));
    expect(others.map(encodingFor)).toEqual(others.map(() => "o200k_base"));
  });
});
