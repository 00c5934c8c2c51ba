/** The built server as `npm start` runs it, in a child process (for signals: SIGTERM drains, SIGKILL crashes). */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { TestDatabase } from "./database";
import { mailedTextIn } from "./client";
import { TEST_APP_KEY } from "./server";

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  output(): string;
  /** The newest message to `to` its log printed for want of SMTP (see `mailedText`), once it has arrived. */
  mailbox(to: string): Promise<string>;
}

export async function spawnBuiltServer(database: TestDatabase, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["build/server.js"], {
    // APP_KEY: without it the server would write its key file to ./data/app.key in the checkout.
    env: { ...process.env, DATABASE_URL: database.url, PORT: "0", HOST: "127.0.0.1", APP_KEY: TEST_APP_KEY, ...env },
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no start-up line in: ${output}`));
    }, 20_000);
    child.stdout.on("data", () => {
      const match = /Atrium is listening on (http:\/\/\S+?)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  const logLines = () =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  async function mailbox(to: string): Promise<string> {
    // The child's stdout reaches this process after its answer did: wait for the line, not for a time.
    for (let waited = 0; waited < 10_000; waited += 50) {
      const text = mailedTextIn(logLines(), to);
      if (text !== undefined) return text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no mail to ${to} in: ${output}`);
  }
  return { url, child, output: () => output, mailbox };
}

/** A command of `scripts/launch.mjs` (`migrate`, `seed`, `admin …`) as a self-hoster runs it, against a database. */
export function runCommand(
  databaseUrl: string,
  command: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/launch.mjs", command, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
