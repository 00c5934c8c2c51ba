/**
 * Custom domains, claiming and verifying (issue 14, ADR 024), through real HTTP with DNS answered by a local
 * DNS server (dns2) that the app's own `node:dns` Resolver asks (DNS_SERVERS): every diagnostic a user can
 * meet, by the console and by /api/domains/verify; a name another workspace verified refused with 409; the
 * periodic re-check turning a verified domain failing when its record goes, then pending after 72 hours;
 * another workspace's admin seeing nothing of ours; the on-demand TLS ask endpoint.
 */
import { domainToASCII } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { purgerOf, registerPurger } from "~/modules/cache/purge.server";
import { queueDueChecks, type DomainServices } from "~/modules/domains/domains.server";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startFakeDns, type FakeDns } from "../helpers/fake-dns";
import { startServer, type TestServer } from "../helpers/server";

const TARGET = "sites.atrium.test";
const TARGET_ADDRESS = "203.0.113.10";
const OWN_HOST = "auth.atrium.test";

let dns: FakeDns;
let server: TestServer;
beforeAll(async () => {
  dns = await startFakeDns();
  dns.set(TARGET, { A: [TARGET_ADDRESS] });
  server = await startServer({
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: "200",
    DOMAIN_CNAME_TARGET: TARGET,
    // The deployment's own second name: never claimable, always answered by the ask endpoint.
    AUTH_URL: `https://${OWN_HOST}`,
    JOBS_POLL_MS: "50",
  });
});
afterAll(async () => {
  await server.close();
  await dns.close();
});
afterEach(() => {
  setTestClock(undefined);
  dns.silent = false;
});

let sites = 0;
async function workspace(tier: "free" | "pro" = "free") {
  sites += 1;
  const slug = `domains-${process.pid}-${sites}`;
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, `Harbor ${sites}`, slug);
  if (tier !== "free") await server.db.updateTable("users").set({ tier }).where("email", "=", email).execute();
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { client, email, slug, workspaceId: id };
}

let hosts = 0;
/** A host name of its own for each test, so fake DNS records never leak between tests. */
const uniqueHost = (prefix = "shop") => `${prefix}${++hosts}-${process.pid}.example.com`;

const add = (client: Client, hostname: string) => client.post("/settings/domains", { intent: "add", hostname });
const verify = (client: Client, hostname: string) => client.postJson("/api/domains/verify", { hostname });
const lastResult = (client: Client, hostname: string) =>
  client.get(`/api/domains/verify?hostname=${encodeURIComponent(hostname)}`);

interface VerifyBody {
  hostname: string;
  status: string;
  primary: boolean;
  diagnostics: { code: string; ok: boolean; message: string; found?: string[] }[];
  records: { type: string; name: string; value: string }[];
}

async function claim(client: Client, hostname: string): Promise<VerifyBody> {
  expect((await add(client, hostname)).status).toBe(200);
  const response = await lastResult(client, hostname);
  expect(response.status).toBe(200);
  return (await response.json()) as VerifyBody;
}

const tokenOf = (body: VerifyBody) => body.records.find((r) => r.type === "TXT")!.value;
const codes = (body: VerifyBody) => body.diagnostics.map((d) => d.code);

/** Creates both records as the console tells the user to. */
function publish(
  hostname: string,
  token: string,
  pointing: Partial<{ CNAME: string; A: string[] }> = { CNAME: TARGET },
) {
  dns.set(`_atrium.${hostname}`, { TXT: [token] });
  dns.set(hostname, pointing);
}

const rowCount = async (hostname: string) =>
  Number(
    (
      await server.db
        .selectFrom("site_domains")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("hostname", "=", hostname)
        .executeTakeFirstOrThrow()
    ).n,
  );

const ask = (domain: string) => fetch(`${server.url}/api/internal/domains/ask?domain=${encodeURIComponent(domain)}`);

describe("claiming a domain", () => {
  it("normalises what is typed and gives a TXT record of its own and the CNAME to create", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    const response = await add(client, `  https://${host.toUpperCase()}./ `);
    expect(response.status).toBe(200);
    const body = await (await lastResult(client, host)).json();
    expect(body).toMatchObject({ hostname: host, status: "pending", primary: false, diagnostics: [] });
    expect(body.records).toEqual([
      { type: "TXT", name: `_atrium.${host}`, value: expect.stringMatching(/^atrium-verify=[0-9a-f]{32}$/) },
      { type: "CNAME", name: host, value: TARGET },
    ]);

    const page = await (await client.get("/settings/domains")).text();
    expect(page).toContain(host);
    expect(page).toContain("Pending");
    expect(page).toContain(`_atrium.${host}`);
    expect(page).toContain(tokenOf(body));
  });

  it("stores an internationalised name as punycode", async () => {
    const { client } = await workspace();
    const typed = `Bäckerei-${process.pid}.example`;
    expect((await add(client, typed)).status).toBe(200);
    const ascii = domainToASCII(typed.toLowerCase());
    expect(ascii).toMatch(/^xn--/);
    expect((await lastResult(client, ascii)).status).toBe(200);
    expect((await lastResult(client, typed)).status).toBe(200); // found by the typed form too
  });

  it.each([
    ["not a host name", "shop example com", "no path or port"],
    ["a single label", "intranet", "with its ending"],
    ["an IP address", "203.0.113.7", "not an IP address"],
    ["an IPv6 address", "[2001:db8::1]", "not an IP address"],
    ["a label starting with -", "-shop.example.com", "no part starts or ends with -"],
    ["a label over 63 characters", `${"a".repeat(64)}.example.com`, "at most 63 characters"],
    ["a name over 253 characters", `${"abcdefghi.".repeat(26)}com`, "at most 253 characters"],
    ["localhost", "shop.localhost", "localhost names"],
    ["the deployment's own host", OWN_HOST, "belongs to this Atrium server"],
    ["a subdomain of the deployment's host", `tenant.${OWN_HOST}`, "belongs to this Atrium server"],
    ["a path", "shop.example.com/about", "no path or port"],
  ])("refuses %s beside the field and writes nothing", async (_, hostname, message) => {
    const { client, workspaceId } = await workspace();
    const response = await add(client, hostname);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain('aria-invalid="true"');
    const rows = await server.db
      .selectFrom("site_domains")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .execute();
    expect(rows).toEqual([]);
  });

  it("refuses the same name twice, and a second domain on the Free plan", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    const again = await add(client, host);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("already one of this workspace");
    const second = await add(client, uniqueHost());
    expect(second.status).toBe(403);
    expect(await second.text()).toContain("The Free plan allows 1 custom domain per workspace");
    expect(await rowCount(host)).toBe(1);
  });
});

describe("verifying: each diagnostic through /api/domains/verify and the console", () => {
  it("says the domain does not exist when DNS has no such name", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    const response = await verify(client, host);
    expect(response.status).toBe(200);
    const body = (await response.json()) as VerifyBody;
    expect(body.status).toBe("pending");
    expect(codes(body)).toEqual(["domain-not-found"]);
    expect(body.diagnostics[0]!.message).toContain(`${host} does not exist in DNS yet`);
  });

  it("says the TXT record is missing, and that the host points elsewhere with what it found", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    dns.set(host, { A: ["198.51.100.4"] });
    const body = (await (await verify(client, host)).json()) as VerifyBody;
    expect(codes(body)).toEqual(["txt-missing", "not-pointing"]);
    expect(body.diagnostics[0]!.message).toContain(`No TXT record was found at _atrium.${host}`);
    expect(body.diagnostics[1]).toMatchObject({ found: ["198.51.100.4"] });
    expect(body.diagnostics[1]!.message).toContain("Its addresses are 198.51.100.4");
  });

  it("shows the TXT value it found when it is not this claim's", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    publish(host, "atrium-verify=00000000000000000000000000000000");
    const body = (await (await verify(client, host)).json()) as VerifyBody;
    expect(codes(body)).toEqual(["txt-mismatch", "pointing-ok"]);
    expect(body.diagnostics[0]!.found).toEqual(["atrium-verify=00000000000000000000000000000000"]);
    expect(body.status).toBe("pending");
  });

  it("says the host does not point here when its CNAME names another host", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    const claimed = await claim(client, host);
    publish(host, tokenOf(claimed), { CNAME: "elsewhere.example.net" });
    dns.set("elsewhere.example.net", { A: ["198.51.100.9"] });
    const body = (await (await verify(client, host)).json()) as VerifyBody;
    expect(codes(body)).toEqual(["txt-ok", "not-pointing"]);
    expect(body.diagnostics[1]!.message).toContain("Its CNAME names elsewhere.example.net");
    expect(body.status).toBe("pending");
  });

  it("changes nothing and says so when the DNS servers do not answer", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    const claimed = await claim(client, host);
    publish(host, tokenOf(claimed));
    expect(((await (await verify(client, host)).json()) as VerifyBody).status).toBe("verified");
    dns.silent = true;
    const body = (await (await verify(client, host)).json()) as VerifyBody;
    expect(codes(body)).toEqual(["dns-unreachable"]);
    expect(body.status).toBe("verified");
  });

  it("verifies with the TXT record and a CNAME, makes it the site's address, and the console says so", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    const claimed = await claim(client, host);
    expect((await ask(host)).status).toBe(404);
    publish(host, tokenOf(claimed));

    const checked = await client.post("/settings/domains", { intent: "check", hostname: host });
    expect(checked.status).toBe(200);
    const html = await checked.text();
    expect(html).toContain(`${host} is verified and serves your site.`);
    expect(html).toContain("The TXT record proves the domain is yours.");
    expect(html).toContain("Site address");

    const body = (await (await lastResult(client, host)).json()) as VerifyBody;
    expect(body).toMatchObject({ status: "verified", primary: true });
    expect(codes(body)).toEqual(["txt-ok", "pointing-ok"]);
    expect((await ask(host)).status).toBe(200);
  });

  it("verifies an apex domain whose A record holds the deployment's address", async () => {
    const { client } = await workspace();
    const host = `apex${++hosts}-${process.pid}.example`;
    const claimed = await claim(client, host);
    publish(host, tokenOf(claimed), { A: [TARGET_ADDRESS] });
    const body = (await (await verify(client, host)).json()) as VerifyBody;
    expect(body.status).toBe("verified");
  });

  it("shows the console's diagnostics after Check now", async () => {
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    dns.set(host, { CNAME: TARGET });
    const html = await (await client.post("/settings/domains", { intent: "check", hostname: host })).text();
    expect(html).toContain(`${host} is not verified yet: see what to fix below.`);
    expect(html).toContain('data-code="txt-missing"');
    expect(html).toContain('data-code="pointing-ok"');
  });

  it("answers the API's errors in the error contract", async () => {
    const { client } = await workspace();
    const missing = await verify(client, "nowhere.example.com");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "Not Found", statusCode: 404 });
    const bad = await verify(client, "not a host");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ statusCode: 400, message: expect.stringContaining("no path or port") });
    const empty = await client.postJson("/api/domains/verify", {});
    expect(empty.status).toBe(400);
    const noQuery = await client.get("/api/domains/verify");
    expect(noQuery.status).toBe(400);
    const anonymous = await new Client(server.url).postJson("/api/domains/verify", { hostname: "x.example.com" });
    expect(anonymous.status).toBe(401);
  });
});

describe("a domain another workspace verified", () => {
  it("cannot be added, nor verified by a second claimant; 409 with a clear message", async () => {
    const first = await workspace();
    const second = await workspace();
    const host = uniqueHost();
    const theirs = await claim(second.client, host); // claimed (pending) before the first verifies
    const ours = await claim(first.client, host);
    dns.set(`_atrium.${host}`, { TXT: [tokenOf(ours), tokenOf(theirs)] });
    dns.set(host, { CNAME: TARGET });
    expect(((await (await verify(first.client, host)).json()) as VerifyBody).status).toBe("verified");

    const refused = await verify(second.client, host);
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({ error: "Conflict", statusCode: 409 });
    expect(body.message).toContain("already connected to another workspace");
    const after = (await (await lastResult(second.client, host)).json()) as VerifyBody;
    expect(after.status).toBe("pending");
    expect(codes(after)).toContain("claimed-elsewhere");

    const third = await workspace();
    const added = await add(third.client, host);
    expect(added.status).toBe(409);
    expect(await added.text()).toContain("already connected to another workspace");
    expect(await rowCount(host)).toBe(2);
  });
});

describe("the periodic re-check", () => {
  it("turns a verified domain failing when its record disappears, then pending after 72 hours", async () => {
    const services = server.atrium.runtime.services.customDomains as DomainServices;
    const { client, workspaceId } = await workspace();
    const host = uniqueHost();
    const claimed = await claim(client, host);
    publish(host, tokenOf(claimed));
    expect(((await (await verify(client, host)).json()) as VerifyBody).status).toBe("verified");

    dns.delete(`_atrium.${host}`);
    let clock = Date.now() + 6 * 3_600_000 + 60_000; // past the verified domain's 6-hour check
    setTestClock(() => new Date(clock));
    expect(await queueDueChecks(services)).toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () => ((await (await lastResult(client, host)).json()) as VerifyBody).status, { timeout: 10_000 })
      .toBe("failing");
    const failing = (await (await lastResult(client, host)).json()) as VerifyBody;
    expect(codes(failing)).toEqual(["txt-missing", "pointing-ok"]);
    expect((await ask(host)).status).toBe(200); // still serving within the grace period
    expect(await (await client.get("/settings/domains")).text()).toContain("keeps serving for 72 hours");

    clock += 73 * 3_600_000;
    expect(await queueDueChecks(services)).toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () => ((await (await lastResult(client, host)).json()) as VerifyBody).status, { timeout: 10_000 })
      .toBe("pending");
    expect(((await (await lastResult(client, host)).json()) as VerifyBody).primary).toBe(false);
    expect((await ask(host)).status).toBe(404);
    const trail = await server.db
      .selectFrom("audit_events")
      .select("action")
      .where("workspace_id", "=", workspaceId)
      .where("action", "like", "domain.%")
      .orderBy("created_at")
      .execute();
    expect(trail.map((e) => e.action)).toEqual(["domain.added", "domain.verified", "domain.failing", "domain.lapsed"]);
  });

  it("purges each flip (verified, failing, lapsed) once, announced inside the transaction that makes it", async () => {
    const services = server.atrium.runtime.services.customDomains as DomainServices;
    const { client, workspaceId } = await workspace();
    const host = uniqueHost();
    const claimed = await claim(client, host);
    // The server's own purger, watched: every call still goes through to it (its cache, NOTIFY, hook).
    const real = purgerOf(server.db)!;
    const seen: { announced: string[][]; inTransaction: boolean[]; purged: string[][] } = {
      announced: [],
      inTransaction: [],
      purged: [],
    };
    const ours = (tags: readonly string[]) => tags.some((tag) => tag.startsWith(`ws:${workspaceId}`));
    registerPurger(server.db, {
      async announce(trx, tags) {
        if (ours(tags)) {
          seen.announced.push([...tags]);
          seen.inTransaction.push(trx.isTransaction);
        }
        await real.announce(trx, tags);
      },
      purged(tags) {
        if (ours(tags)) seen.purged.push([...tags]);
        real.purged(tags);
      },
    });
    try {
      publish(host, tokenOf(claimed));
      expect(((await (await verify(client, host)).json()) as VerifyBody).status).toBe("verified");
      expect(seen.purged).toEqual([[`ws:${workspaceId}`]]);

      dns.delete(`_atrium.${host}`);
      let clock = Date.now() + 6 * 3_600_000 + 60_000;
      setTestClock(() => new Date(clock));
      await queueDueChecks(services);
      await expect.poll(() => seen.purged.length, { timeout: 10_000 }).toBe(2);
      clock += 73 * 3_600_000;
      await queueDueChecks(services);
      await expect.poll(() => seen.purged.length, { timeout: 10_000 }).toBe(3);
      expect(((await (await lastResult(client, host)).json()) as VerifyBody).status).toBe("pending");
    } finally {
      registerPurger(server.db, real);
    }
    // One purge per flip (the lapse was purged twice), each announced by its own transaction, not after it.
    expect(seen.purged).toEqual([[`ws:${workspaceId}`], [`ws:${workspaceId}`], [`ws:${workspaceId}`]]);
    expect(seen.announced).toEqual(seen.purged);
    expect(seen.inTransaction).toEqual([true, true, true]);
  });

  it("does not queue a check before it is due, nor twice", async () => {
    const services = server.atrium.runtime.services.customDomains as DomainServices;
    const { client } = await workspace();
    const host = uniqueHost();
    await claim(client, host);
    const due = () => server.db.selectFrom("jobs").select("id").where("kind", "=", "domains.check").execute();
    const before = (await due()).length;
    setTestClock(() => new Date(Date.now() + 6 * 60_000)); // a new claim is checked after 5 minutes
    const queued = await queueDueChecks(services);
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(await queueDueChecks(services)).toBe(0);
    expect((await due()).length).toBe(before + queued);
  });
});

describe("several domains: primary, redirect, remove", () => {
  it("moves the site's address, switches the redirect, and promotes another when the primary goes", async () => {
    const { client } = await workspace("pro");
    const a = uniqueHost("a");
    const b = uniqueHost("b");
    for (const host of [a, b]) {
      const claimed = await claim(client, host);
      publish(host, tokenOf(claimed));
      expect(((await (await verify(client, host)).json()) as VerifyBody).status).toBe("verified");
    }
    const primary = async (host: string) => ((await (await lastResult(client, host)).json()) as VerifyBody).primary;
    expect([await primary(a), await primary(b)]).toEqual([true, false]);

    expect((await client.post("/settings/domains", { intent: "primary", hostname: b })).status).toBe(200);
    expect([await primary(a), await primary(b)]).toEqual([false, true]);

    const off = await client.post("/settings/domains", { intent: "redirect", hostname: b, redirect: "off" });
    expect(await off.text()).toContain("without sending visitors on");
    const row = () =>
      server.db.selectFrom("site_domains").select("redirect_path").where("hostname", "=", b).executeTakeFirstOrThrow();
    expect((await row()).redirect_path).toBe(0);
    await client.post("/settings/domains", { intent: "redirect", hostname: b, redirect: "on" });
    expect((await row()).redirect_path).toBe(1);

    const pending = uniqueHost("c");
    await claim(client, pending);
    const refused = await client.post("/settings/domains", { intent: "primary", hostname: pending });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("is not verified yet");

    expect((await client.post("/settings/domains", { intent: "remove", hostname: b })).status).toBe(200);
    expect(await rowCount(b)).toBe(0);
    expect(await primary(a)).toBe(true);
    expect((await ask(b)).status).toBe(404);
  });
});

describe("isolation", () => {
  it("another workspace's admin can neither see, check, verify nor remove our domain", async () => {
    const ours = await workspace();
    const theirs = await workspace();
    const host = uniqueHost();
    const claimed = await claim(ours.client, host);
    publish(host, tokenOf(claimed));

    expect(await (await theirs.client.get("/settings/domains")).text()).not.toContain(host);
    expect((await lastResult(theirs.client, host)).status).toBe(404);
    expect((await verify(theirs.client, host)).status).toBe(404);
    expect((await theirs.client.post("/settings/domains", { intent: "check", hostname: host })).status).toBe(404);
    expect((await theirs.client.post("/settings/domains", { intent: "remove", hostname: host })).status).toBe(404);
    expect((await theirs.client.post("/settings/domains", { intent: "primary", hostname: host })).status).toBe(404);
    const row = await server.db
      .selectFrom("site_domains")
      .selectAll()
      .where("hostname", "=", host)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ workspace_id: ours.workspaceId, status: "pending", last_checked_at: null });
  });

  it("members below admin are refused the page and the API", async () => {
    const owner = await workspace();
    const editor = await signUp(server.url);
    await addMember(server.url, owner.client, editor, "editor");
    const host = uniqueHost();
    await claim(owner.client, host);
    expect((await editor.client.get("/settings/domains")).status).toBe(403);
    const refused = await verify(editor.client, host);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ statusCode: 403 });
  });
});

describe("the on-demand TLS ask endpoint", () => {
  it("answers 200 for the deployment's own host, 404 for others, 400 without a name", async () => {
    expect((await ask(OWN_HOST)).status).toBe(200);
    expect((await ask(`${OWN_HOST}.`)).status).toBe(200);
    expect((await ask("unknown.example.com")).status).toBe(404);
    // A bare name only: what a URL authority would read as the own host is not that host.
    expect((await ask(OWN_HOST.toUpperCase())).status).toBe(200);
    for (const tricky of [`someone@${OWN_HOST}`, `${OWN_HOST}:443`, `${OWN_HOST}/x`, `evil.example.com@${OWN_HOST}`]) {
      expect((await ask(tricky)).status, tricky).toBe(404);
    }
    const none = await fetch(`${server.url}/api/internal/domains/ask`);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ statusCode: 400 });
  });
});

describe("the ask endpoint behind a proxy", () => {
  const SECRET = "a-shared-secret-of-enough-length";
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startServer({
      TRUST_PROXY: "loopback",
      DOMAINS_ASK_SECRET: SECRET,
      AUTH_URL: `https://${OWN_HOST}`,
    });
  });
  afterAll(() => proxied.close());

  const askVia = (query: string, forwardedFor?: string) =>
    fetch(`${proxied.url}/api/internal/domains/ask?${query}`, {
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
    });

  it("refuses a public client relayed by the proxy, unless it presents DOMAINS_ASK_SECRET", async () => {
    const query = `domain=${OWN_HOST}`;
    expect((await askVia(query)).status).toBe(200); // the proxy itself, on loopback
    const relayed = await askVia(query, "198.51.100.7");
    expect(relayed.status).toBe(403);
    expect(await relayed.json()).toMatchObject({ statusCode: 403 });
    expect((await askVia(`${query}&secret=wrong-secret-of-enough-length`, "198.51.100.7")).status).toBe(403);
    expect((await askVia(`${query}&secret=${SECRET}`, "198.51.100.7")).status).toBe(200);
    expect((await askVia(`domain=unknown.example.com&secret=${SECRET}`, "198.51.100.7")).status).toBe(404);
  });
});
