/** The built server as `npm start` runs it: starts, answers, and stops cleanly on SIGTERM. */
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../helpers/database";
import { spawnBuiltServer } from "../helpers/process";

describe("the built server process", () => {
  it("serves /api/health, then drains and exits 0 on SIGTERM", async () => {
    const database = await freshDatabase();
    const { url, child, output } = await spawnBuiltServer(database, { SEED_DEMO: "true", LOG_LEVEL: "info" });
    try {
      // The start-up banner is one JSON record on a pipe, the demo's sign-in among its fields.
      expect(output()).toContain('"demo":{"email":"demo@atrium.test","password":"atrium-demo-password"');
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect((await fetch(`${url}/harbor-bakery`)).status).toBe(200);
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(0);
      expect(output()).toContain('"msg":"stopped"');
    } finally {
      child.kill("SIGKILL");
      await database.drop();
    }
  });
});
