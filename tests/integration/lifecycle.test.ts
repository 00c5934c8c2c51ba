/** The built server as `npm start` runs it: starts, answers, and stops cleanly on SIGTERM. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../helpers/database";

describe("the built server process", () => {
  it("serves /api/health, then drains and exits 0 on SIGTERM", async () => {
    const database = await freshDatabase();
    const child = spawn(process.execPath, ["build/server.js"], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: "0",
        HOST: "127.0.0.1",
        SEED_DEMO: "true",
        LOG_LEVEL: "info",
      },
    });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line in: ${output}`)), 20_000);
        child.stdout.on("data", (d: Buffer) => {
          output += d.toString();
          const match = /Atrium is listening on (http:\/\/\S+?)"/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect(output).toContain("sign in as demo@atrium.test / atrium-demo-password");
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect((await fetch(`${url}/harbor-bakery`)).status).toBe(200);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(0);
      expect(output).toContain('"msg":"stopped"');
    } finally {
      child.kill("SIGKILL");
      await database.drop();
    }
  });
});
