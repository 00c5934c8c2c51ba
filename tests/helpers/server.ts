/** The real server, in-process, on an ephemeral port, over a fresh database. */
import { Writable } from "node:stream";
import { pino } from "pino";
import { createAtriumServer, type AtriumServer } from "../../server";
import { freshDatabase, type TestDatabase } from "./database";

export const TEST_APP_KEY = Buffer.alloc(32, 42).toString("base64");

export interface TestServer {
  url: string;
  atrium: AtriumServer;
  database: TestDatabase;
  /** Every JSON log line the server wrote. */
  logs: Record<string, unknown>[];
  db: AtriumServer["runtime"]["services"]["db"];
  close(): Promise<void>;
}

/** Running test servers by URL, so helpers given only a URL (`signUp`) can read the mail a server sent. */
export const serversByUrl = new Map<string, TestServer>();

/** `database`: reuse one the test made itself (it then drops it); by default a fresh one, dropped at close. */
export async function startServer(env: Record<string, string> = {}, database?: TestDatabase): Promise<TestServer> {
  const owned = database === undefined;
  database ??= await freshDatabase();
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const atrium = await createAtriumServer({
    env: {
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "false",
      // Tests often leave a response body unread, which keeps its connection busy; don't wait 10 s for it.
      SHUTDOWN_TIMEOUT_MS: "300",
      // One key for every test server, so a restarted server opens the secrets its predecessor sealed.
      APP_KEY: TEST_APP_KEY,
      // Every test client comes from loopback: a file signs up more operators than one address may in an hour.
      SIGNUPS_PER_ADDRESS_PER_HOUR: "1000",
      ...env,
    },
    logger: pino({ level: "info" }, sink),
  });
  const url = await atrium.listen();
  const server: TestServer = {
    url,
    atrium,
    database,
    logs,
    db: atrium.runtime.services.db,
    close: async () => {
      serversByUrl.delete(url);
      await atrium.close();
      if (owned) await database.drop();
    },
  };
  serversByUrl.set(url, server);
  return server;
}
