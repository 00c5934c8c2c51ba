/**
 * Where the server's own logger writes: stdout, through pino's asynchronous sonic-boom (pino's default, so
 * a slow log reader never holds up a request). pino flushes it synchronously on exit, and that flush retries
 * every failed write but EAGAIN forever: when the reader of stdout had gone away (EPIPE) before a buffered
 * line was written, the process never exited (issue 12, item 11). `end` lets the server stop on its own
 * terms instead: it writes out what is buffered while the event loop still runs (a broken pipe just ends
 * it), waits at most `timeoutMs`, and leaves nothing for the exit to flush, whatever the reader does.
 */
import { destination as pinoDestination } from "pino";

export interface LogDestination {
  destination: ReturnType<typeof pinoDestination>;
  /** Writes what is buffered (at most `timeoutMs`), then discards every later line. */
  end(timeoutMs: number): Promise<void>;
}

export function stdoutLogDestination(): LogDestination {
  const destination = pinoDestination({ dest: 1, sync: false });
  let ending: Promise<void> | undefined;
  const end = (timeoutMs: number) =>
    (ending ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        // What pino itself does on EPIPE: later lines are dropped, and exit finds nothing to flush.
        destination.write = () => true;
        destination.flushSync = () => undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      destination.once("close", done);
      destination.once("error", done);
      try {
        destination.end();
      } catch {
        done();
      }
    }));
  return { destination, end };
}
