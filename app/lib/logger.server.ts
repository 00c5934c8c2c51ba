/**
 * The process's logger: one JSON line per record (what production, pipes and log collectors read), or —
 * on a developer's terminal — the same records as readable lines through pino-pretty.
 */
import { pino, type Logger } from "pino";
import { prettyFactory } from "pino-pretty";
import type { Env } from "~/lib/env.server";
import type { LogDestination } from "~/lib/log-destination.server";

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

/**
 * `destination` is stdout's (log-destination.server.ts), which the server ends before it exits. Pretty lines
 * are formatted in-process and written to it too (not pino-pretty's worker-thread transport): records and the
 * banner stay in order, and there is no second stream to flush at exit.
 */
export function createProcessLogger(
  env: Env,
  destination: LogDestination["destination"],
  stdout: { isTTY?: boolean } = process.stdout,
): ProcessLogger {
  const options = { level: env.LOG_LEVEL, base: { service: "atrium" } };
  const format = chooseLogFormat(env.LOG_FORMAT, env.production, stdout.isTTY === true);
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
