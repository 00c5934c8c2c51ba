/** The built server as `npm start` runs it, in a child process (for signals: SIGTERM drains, SIGKILL crashes). */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { TestDatabase } from "./database";
import { TEST_APP_KEY } from "./server";

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  output(): string;
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
  return { url, child, output: () => output };
}
