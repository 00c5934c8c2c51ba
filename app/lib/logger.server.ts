/**
 * The process's logger: one JSON line per record (what production, pipes and log collectors read), or —
 * on a developer's terminal — the same records as readable lines through pino-pretty.
 */
import { destination as fileDestination, pino, type Logger } from "pino";
import { prettyFactory } from "pino-pretty";
import type { Env } from "~/lib/env.server";

export type LogFormat = "json" | "pretty";

/**
 * `LOG_FORMAT=auto` is pretty only where a person reads it: outside production, with stdout on a terminal.
 * Anything piped (the CI smoke test greps `"msg":"stopped"`, process managers collect lines) stays JSON.
 */
export function chooseLogFormat(setting: Env["LOG_FORMAT"], production: boolean, isTTY: boolean): LogFormat {
  if (setting !== "auto") return setting;
  return !production && isTTY ? "pretty" : "json";
}

export interface ProcessLogger {
  logger: Logger;
  format: LogFormat;
  /** Writes text as is, in order with the log records (the start-up banner on a terminal). */
  print(text: string): void;
}

export function createProcessLogger(env: Env, stdout: { isTTY?: boolean } = process.stdout): ProcessLogger {
  const options = { level: env.LOG_LEVEL, base: { service: "atrium" } };
  const format = chooseLogFormat(env.LOG_FORMAT, env.production, stdout.isTTY === true);
  // Synchronous writes to fd 1, formatted in-process (not pino-pretty's worker-thread transport): a record
  // logged just before process.exit is on the terminal, as with JSON, with no transport to flush.
  const destination = fileDestination({ fd: 1, sync: true });
  if (format === "json")
    return { logger: pino(options, destination), format, print: (text) => destination.write(text) };
  const prettify = prettyFactory({
    colorize: stdout.isTTY === true,
    translateTime: "SYS:HH:MM:ss",
    // A request record reads "GET /path 200 (12 ms)"; its other fields (caller, route, failure) follow.
    messageFormat: (record, messageKey) => {
      const { req, res, responseTime } = record as {
        req?: { method?: string; path?: string };
        res?: { statusCode?: number };
        responseTime?: number;
      };
      if (!req?.path || !res) return String(record[messageKey] ?? "");
      return `${req.method} ${req.path} ${res.statusCode} (${responseTime} ms)`;
    },
    ignore: "pid,hostname,service,req,res,responseTime",
    singleLine: true,
  });
  const stream = { write: (line: string) => destination.write(prettify(line)) };
  return { logger: pino(options, stream), format, print: (text) => destination.write(text) };
}
