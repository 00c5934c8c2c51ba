/**
 * Remembers a pure function's answers by their string argument, for the page cache's hit path, where the same
 * few host names and `Accept-Encoding` values come back on every request (issue 15, ADR 028). Bounded: the
 * arguments come from clients, so past `max` distinct ones the memory is emptied and starts again, and a client
 * sending new values each time only costs the work the memo would have saved.
 */
export function memoized<T>(fn: (key: string) => T, max = 1_000): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    if (answers.has(key)) return answers.get(key) as T;
    const answer = fn(key);
    if (answers.size >= max) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}
