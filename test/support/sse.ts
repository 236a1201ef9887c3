/** An SSE body whose every event is one `event:` line and one `data:` line of JSON, as `{ event, data }` in order. */
export function namedEvents(text: string): { event: string; data: any }[] {
  return text
    .trim()
    .split("\n\n")
    .map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.slice("event: ".length), data: JSON.parse(data!.slice("data: ".length)) };
    });
}
