/**
 * The tools, message and expected arguments every forced-tool-choice compat test shares. Every surface parses the
 * message into the same canonical conversation, so the default responder derives the same arguments on each.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

export const MESSAGE = "What is the weather in Paris?";

/** The first tool offered: what `required` / `any` / `ANY` without allowed names calls. */
export const TIME_SCHEMA = {
  type: "object" as const,
  properties: { zone: { type: "string", enum: ["Europe/Paris", "America/New_York", "Asia/Tokyo"] }, precise: { type: "boolean" } },
  required: ["zone"],
};

/** The named tool: nested objects and arrays, an enum, bounds, a format, a `$ref`, an `anyOf`. */
export const WEATHER_SCHEMA = {
  type: "object" as const,
  properties: {
    city: { type: "string", minLength: 2 },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "integer", minimum: 1, maximum: 7 },
    when: { type: "string", format: "date" },
    at: { $ref: "#/$defs/point" },
    tags: { type: "array", items: { type: "string" }, minItems: 2 },
    detail: { anyOf: [{ type: "string", enum: ["brief", "full"] }, { type: "null" }] },
  },
  required: ["city", "unit", "at"],
  additionalProperties: false,
  $defs: {
    point: { type: "object", properties: { lat: { type: "number", minimum: -90, maximum: 90 }, lon: { type: "number", minimum: -180, maximum: 180 } }, required: ["lat", "lon"] },
  },
};

export const TOOLS = [
  { name: "lookup_time", description: "The time in a zone", schema: TIME_SCHEMA },
  { name: "get_weather", description: "The weather in a city", schema: WEATHER_SCHEMA },
] as const;

/** What the default responder answers for MESSAGE, on every surface and runtime. */
export const WEATHER_ARGS = {
  city: "Sydney",
  unit: "celsius",
  days: 7,
  when: "2024-03-19",
  at: { lat: 48.8566, lon: 2.3522 },
  tags: ["reprehenderit in voluptate", "eu fugiat nulla"],
  detail: "full",
};
export const TIME_ARGS = { zone: "America/New_York", precise: true };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = { lookup_time: ajv.compile(TIME_SCHEMA), get_weather: ajv.compile(WEATHER_SCHEMA) };

/** Ajv's errors for `args` against the named tool's schema; [] when valid. */
export function schemaErrors(tool: "lookup_time" | "get_weather", args: unknown): unknown[] {
  const validate = validators[tool];
  return validate(args) ? [] : (validate.errors ?? []);
}
