/**
 * Where a JSON text first goes wrong, as line and column: JSON.parse's own messages carry a
 * position only sometimes (and differently across Node versions), so this scans for it.
 */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

/**
 * Returns the first syntax error, or undefined when the text is valid JSON.
 * @example findJsonSyntaxError('{"a": }') // { line: 1, column: 7, message: "expected a value, found \"}\"" }
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw Object.assign(new Error(message), { at: i });
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const found = (): string => (i >= text.length ? "end of file" : JSON.stringify(text[i]));
  const expectChar = (c: string, what: string): void => {
    if (text[i] !== c) fail(`expected ${what}, found ${found()}`);
    i++;
  };
  const string = (): void => {
    expectChar('"', "a string");
    while (text[i] !== '"') {
      if (i >= text.length) fail("unterminated string");
      const c = text[i] ?? "";
      if (c < " ") fail(`control character in string (use an escape such as \\n)`);
      if (c === "\\") {
        i++;
        if (text[i] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if ('"\\/bfnrt'.includes(text[i] ?? "x") && i < text.length) i++;
        else fail("invalid escape in string");
      } else i++;
    }
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        string();
        ws();
        expectChar(":", '":"');
        value();
        ws();
        if (text[i] === ",") i++;
        else return expectChar("}", '"," or "}"');
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else return expectChar("]", '"," or "]"');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal === null) fail(`expected a value, found ${found()}`);
    i += literal?.[0].length ?? 0;
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${found()} after the JSON value`);
    return undefined;
  } catch (err) {
    const at = (err as { at: number }).at;
    const before = text.slice(0, at);
    return { line: before.split("\n").length, column: at - before.lastIndexOf("\n"), message: (err as Error).message };
  }
}
