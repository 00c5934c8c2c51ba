/**
 * Runs a test server's queued jobs now (e-mails, image fetches) and waits until none is queued or running, as
 * a worker would given time; a job still pending after a few seconds fails the test.
 */
import type { TestServer } from "./server";

export async function drainJobs(server: TestServer, tries = 60): Promise<void> {
  for (let i = 0; i < tries; i += 1) {
    const queued = await server.db
      .selectFrom("jobs")
      .select("id")
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (!queued) return;
    server.atrium.runtime.services.jobRunner.wake();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("jobs did not finish");
}
