/**
 * Issue 15 review (attacker #2, maintainer F1): a domain change made on one process reaches the other
 * process's domains registry with the purge, not at its next timed reload. The second process here reloads its
 * registry on its own only once an hour (DOMAINS_REFRESH_MS), so whatever it shows within the test's bound came
 * with the purge: a new primary domain is the canonical address of its next render, and a removed domain is
 * answered 421 (not a stored page) at once and keeps being refused.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainsOf } from "~/modules/domains/domains.server";
import { createWorkspace, signUp, type Client } from "../helpers/client";
import { insertVerifiedDomain } from "../helpers/domains";
import { spawnBuiltServer, type ServerProcess } from "../helpers/process";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir } from "../helpers/temp";

const DEPLOYMENT = "https://atrium.example.test";
const SHOP = "shop.example.test";
const WWW = "www.shop.example.test";
const slug = `hostmap-${Math.random().toString(36).slice(2, 8)}`;

let server: TestServer;
let other: ServerProcess;
let owner: Client;
let ownerId: string;
let workspaceId: string;
const files = tempDir("atrium-hostmap-files");

interface Answer {
  status: number;
  hit: boolean;
  body: string;
}

/** A request to the second process with the Host given (fetch will not send one of the test's choosing). */
function send(host: string, path: string): Promise<Answer> {
  const { hostname, port } = new URL(other.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers: { host }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          hit: res.headers.age !== undefined,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Postgres: the NOTIFY at commit. SQLite: the other process polls the purge log every half second. */
const bound = () => 1_000;

const domains = () => domainsOf(server.atrium.runtime.services.customDomains, workspaceId);

beforeAll(async () => {
  server = await startServer({ FILES_DIR: files.path, PUBLIC_URL: DEPLOYMENT });
  const signedUp = await signUp(server.url);
  owner = signedUp.client;
  await createWorkspace(owner, "Host Map Bakery", slug);
  const created = await owner.post("/website/pages/new", { inNavigation: "on", title: "Hours", slug: "hours" });
  expect(created.status, await created.clone().text()).toBe(302);
  const user = await server.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", signedUp.email)
    .executeTakeFirstOrThrow();
  ownerId = user.id;
  const workspace = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  workspaceId = workspace.id;
  // Written before the second process starts: its first registry load has both.
  await insertVerifiedDomain(server, workspaceId, SHOP, { invalidate: false });
  await insertVerifiedDomain(server, workspaceId, WWW, { primary: false, invalidate: false });
  other = await spawnBuiltServer(server.database, {
    FILES_DIR: files.path,
    PUBLIC_URL: DEPLOYMENT,
    DOMAINS_REFRESH_MS: "3600000",
  });
});

afterAll(async () => {
  other?.child.kill("SIGTERM");
  await server?.close();
  files.remove();
});

describe("a domain change on one process, seen by another's page cache", () => {
  it("a new primary domain is the canonical address of the other process's next render", async () => {
    const host = new URL(other.url).host;
    // On Postgres it stores nothing until its LISTEN connection is up, a moment after it starts answering.
    await eventually(async () => (await send(host, `/${slug}`)).hit, 5_000, "the second process to keep the page");
    expect(canonicalOf((await send(host, `/${slug}`)).body)).toBe(`https://${SHOP}/`);

    await domains().makePrimary(ownerId, WWW);
    await eventually(
      async () => canonicalOf((await send(host, `/${slug}`)).body) === `https://${WWW}/`,
      bound(),
      "the new canonical address on the second process",
    );
    // What it stores now is the new render, not one made with the old host map.
    const again = await send(host, `/${slug}`);
    expect(again.hit).toBe(true);
    expect(canonicalOf(again.body)).toBe(`https://${WWW}/`);
  });

  it("a removed domain is refused (421) by the other process at once, and nothing is stored for it", async () => {
    await eventually(async () => (await send(WWW, "/")).hit, 5_000, "the second process to keep the domain's page");

    await domains().remove(ownerId, WWW);
    await eventually(async () => (await send(WWW, "/")).status === 421, bound(), "421 on the second process");
    for (let i = 0; i < 3; i++) expect(await send(WWW, "/")).toMatchObject({ status: 421, hit: false });
  });
});
