import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../tests/helpers/temp";

const MODULE = fileURLToPath(new URL("./log-destination.server.ts", import.meta.url));

/** A process that logs through the destination, as the server does, and ends its logs before exiting. */
const CHILD = `
import { pino } from "pino";
import { stdoutLogDestination } from ${JSON.stringify(MODULE)};
const stdout = stdoutLogDestination();
const log = pino({}, stdout.destination);
process.stdin.once("data", async () => {
  for (let i = 0; i < 5; i++) log.info("a line nobody will read");
  await stdout.end(2000);
  process.exit(0);
});
process.stderr.write("ready\\n");
`;

describe("the server's log destination", () => {
  it("lets the process exit when the reader of stdout has gone away with lines still buffered", async () => {
    // tsx keeps a compile cache in the temp folder: the child's goes in a folder of this test's own.
    const tmp = tempDir("atrium-log-destination");
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
      env: { ...process.env, TMPDIR: tmp.path },
    });
    try {
      await once(child.stderr, "data");
      // The reader goes away: every write to the child's stdout now fails with EPIPE.
      child.stdout.destroy();
      child.stdin.write("go\n");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
      clearTimeout(killer);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    } finally {
      child.kill("SIGKILL");
      tmp.remove();
    }
  }, 30_000);
});
