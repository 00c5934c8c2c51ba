/** Operator accounts: sign-up, sign-in, sessions, throttling, CSRF defence, suspension. */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNUP_LINK_HOURS, purgeExpiredSignups } from "~/modules/accounts/signups.server";
import { setStatus } from "~/modules/accounts/users.server";
import { purgeExpiredKnownAddresses } from "~/modules/auth/known-addresses.server";
import {
  Client,
  PASSWORD,
  createWorkspace,
  lastMailTo,
  linkIn,
  mailedText,
  signUp,
  uniqueEmail,
} from "../helpers/client";
import { TOKEN_NOT_STORED } from "~/modules/mail/mail.server";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  // Every client here comes from loopback: the throttle tests below use servers of their own.
  server = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "1000" });
});
afterAll(() => server.close());

const COOKIE = "atrium_session";
const sha256 = (v: string) => createHash("sha256").update(v).digest("hex");

describe("sign-up", () => {
  it("answers with a link by e-mail; following it creates the account, signs in and sets the cookie", async () => {
    const client = new Client(server.url);
    const email = uniqueEmail();
    const res = await client.post("/signup", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`We sent a link to ${email} to finish creating your account`);
    expect(client.cookie(COOKIE)).toBeUndefined();
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).execute()).toHaveLength(0);

    const mail = await lastMailTo(server.url, email);
    expect(mail.subject).toBe("Finish creating your Atrium account");
    // No SMTP_URL here: the log shows the message, so a fresh install's first operator can finish.
    const link = linkIn(mailedText(server.url, email), "/signup/confirm");
    const token = new URL(link, server.url).searchParams.get("token")!;
    // Only the token's hash is stored, and the mail's record keeps the message without it: the link signs in.
    const stored = await server.db.selectFrom("signup_requests").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    expect(mail.body).toContain(`/signup/confirm?token=${TOKEN_NOT_STORED}`);
    const bodies = await server.db.selectFrom("mail_messages").select("body").execute();
    expect(bodies.filter((m) => m.body.includes(token))).toEqual([]);

    // Opening the link changes nothing (mail scanners open links); the button does.
    const page = await client.get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    const confirmed = await client.post(link, { token });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/");
    const cookie = confirmed.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`)) ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    const home = await client.get("/");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(email);

    // The link works once.
    const again = await new Client(server.url).post(link, { token });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("This link has expired or was already used");
  });

  it("refuses an expired link", async () => {
    const email = uniqueEmail();
    expect((await new Client(server.url).post("/signup", { email, password: PASSWORD })).status).toBe(200);
    const link = linkIn(mailedText(server.url, email), "/signup/confirm");
    await server.db
      .updateTable("signup_requests")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("email", "=", email)
      .execute();
    const res = await new Client(server.url).get(link);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("This link has expired or was already used");
    // The job runner's housekeeping forgets it, and account mail once it is older than a link's lifetime;
    // a workspace's mail stays.
    const day = new Date(Date.now() - SIGNUP_LINK_HOURS * 3_600_000 - 1000).toISOString();
    await server.db.updateTable("mail_messages").set({ created_at: day }).where("to_address", "=", email).execute();
    const { client } = await signUp(server.url);
    await createWorkspace(client, "Old mail", "old-mail-ws");
    const workspace = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", "old-mail-ws")
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto("mail_messages")
      .values({
        id: `old-${email}`,
        workspace_id: workspace.id,
        idempotency_key: null,
        transport: "outbox",
        to_address: email,
        subject: "A workspace's receipt",
        body: "kept",
        status: "outbox",
        error: null,
        created_at: day,
      })
      .execute();
    await purgeExpiredSignups(server.db);
    expect(await server.db.selectFrom("signup_requests").where("email", "=", email).selectAll().execute()).toEqual([]);
    const left = await server.db
      .selectFrom("mail_messages")
      .select("subject")
      .where("to_address", "=", email)
      .execute();
    expect(left).toEqual([{ subject: "A workspace's receipt" }]);
  });

  it("stores only the hash of the session secret", async () => {
    const { client } = await signUp(server.url);
    const secret = client.cookie(COOKIE)!;
    expect(secret.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    const rows = await server.db.selectFrom("sessions").select("id").execute();
    expect(rows.map((r) => r.id)).toContain(sha256(secret));
    expect(rows.map((r) => r.id)).not.toContain(secret);
  });

  it("answers a taken e-mail exactly as a new one, and tells its owner by e-mail instead", async () => {
    const { email } = await signUp(server.url);
    const fresh = uniqueEmail();
    const attempt = async (address: string) => {
      const client = new Client(server.url);
      const res = await client.post("/signup", { email: address, password: PASSWORD });
      return { status: res.status, html: await res.text(), cookie: client.cookie(COOKIE) };
    };
    const taken = await attempt(email.toUpperCase());
    const untaken = await attempt(fresh);
    expect(taken.status).toBe(untaken.status);
    expect(taken.cookie).toBeUndefined();
    // The same page, but for the address and the per-response script nonce.
    const same = (html: string, address: string) => html.replaceAll(address, "ADDRESS").replace(/nonce="[^"]*"/g, "");
    expect(same(taken.html, email)).toBe(same(untaken.html, fresh));
    const mail = await lastMailTo(server.url, email);
    expect(mail.subject).toBe("Someone tried to create an Atrium account with your address");
    expect(mail.body).toContain(`${server.url}/login`);
    expect(mail.body).not.toContain("/signup/confirm");
    const pending = await server.db.selectFrom("signup_requests").select("id").where("email", "=", email).execute();
    expect(pending).toHaveLength(0);
  });

  it("shows field errors for a bad email and a short password", async () => {
    const res = await new Client(server.url).post("/signup", { email: "not-an-email", password: "short" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Enter a valid email address");
    expect(html).toContain("Use at least 10 characters");
  });
});

describe("password policy (NIST SP 800-63B)", () => {
  it.each([
    ["password12", "lists of common or leaked passwords"],
    ["1234567890", "lists of common or leaked passwords"],
    ["aaaaaaaaaa", "Avoid repeated or sequential characters"],
    ["abcdefghij", "Avoid repeated or sequential characters"],
    ["Atrium2024!", "Don&#x27;t use your email address"],
  ])("refuses %s at sign-up, next to the password field", async (password, message) => {
    const res = await new Client(server.url).post("/signup", { email: uniqueEmail(), password });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
  });

  it("refuses the e-mail itself as the password", async () => {
    const email = uniqueEmail();
    const res = await new Client(server.url).post("/signup", { email, password: email });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Don&#x27;t use your email address");
    const rows = await server.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(0);
  });
});

describe("sign-in and sessions", () => {
  it("signs in with the right password and refuses a wrong one with a generic message", async () => {
    const { email } = await signUp(server.url);
    const wrong = await new Client(server.url).post("/login", { email, password: "wrong password!" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Email or password is incorrect");
    const unknown = await new Client(server.url).post("/login", { email: uniqueEmail(), password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain("Email or password is incorrect");
    const ok = await new Client(server.url).post("/login", { email, password: PASSWORD });
    expect(ok.status).toBe(302);
  });

  it("redirects back to the page that asked for sign-in, and never off-site", async () => {
    const { email } = await signUp(server.url);
    const anonymous = await new Client(server.url).get("/settings");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
    const back = await new Client(server.url).post("/login?redirectTo=%2Fsettings", {
      email,
      password: PASSWORD,
      redirectTo: "/settings",
    });
    expect(back.headers.get("location")).toBe("/settings");
    const offsite = await new Client(server.url).post("/login", {
      email,
      password: PASSWORD,
      redirectTo: "//evil.test/x",
    });
    expect(offsite.headers.get("location")).toBe("/");
    // Dot segments that normalise to `//host`, as a form post and as Remix's single-fetch `.data` request.
    for (const path of ["/login", "/login.data"]) {
      for (const redirectTo of ["/.//evil.test", "/a/..//evil.test/x"]) {
        const answer = await new Client(server.url).post(path, { email, password: PASSWORD, redirectTo });
        // A redirect's target is in Location, or in single fetch's body (`["redirect","/",…]`).
        const target = answer.headers.get("location") ?? (await answer.text());
        expect(target, `${path} ${redirectTo}`).not.toContain("evil.test");
        expect(target === "/" || target.includes('"redirect","/"'), `${path} ${redirectTo}: ${target}`).toBe(true);
      }
    }
  });

  it("rotates the session at sign-in: the session presented before is revoked", async () => {
    const { client, email } = await signUp(server.url);
    const before = client.cookie(COOKIE)!;
    await client.post("/login", { email, password: PASSWORD });
    const after = client.cookie(COOKIE)!;
    expect(after).not.toBe(before);
    const stale = new Client(server.url);
    stale.setCookie(COOKIE, before);
    expect((await stale.get("/")).status).toBe(302);
    expect((await client.get("/")).status).toBe(200);
  });

  it("revokes the session at sign-out, server-side", async () => {
    const { client } = await signUp(server.url);
    const secret = client.cookie(COOKIE)!;
    const res = await client.post("/logout", {});
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expect(client.cookie(COOKIE)).toBeUndefined();
    const replay = new Client(server.url);
    replay.setCookie(COOKIE, secret);
    expect((await replay.get("/")).status).toBe(302);
  });

  it("does not sign out on GET", async () => {
    const { client } = await signUp(server.url);
    await client.get("/logout");
    expect((await client.get("/")).status).toBe(200);
  });

  it("expires a session idle for longer than the idle limit", async () => {
    const { client } = await signUp(server.url);
    const id = sha256(client.cookie(COOKIE)!);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await server.db.updateTable("sessions").set({ last_seen_at: eightDaysAgo }).where("id", "=", id).execute();
    expect((await client.get("/")).status).toBe(302);
  });

  it("expires a session past its absolute lifetime even when active", async () => {
    const { client } = await signUp(server.url);
    const id = sha256(client.cookie(COOKIE)!);
    await server.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect((await client.get("/")).status).toBe(302);
  });

  it("keeps a session used within the idle limit", async () => {
    const { client } = await signUp(server.url);
    const id = sha256(client.cookie(COOKIE)!);
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000).toISOString();
    await server.db.updateTable("sessions").set({ last_seen_at: sixDaysAgo }).where("id", "=", id).execute();
    expect((await client.get("/")).status).toBe(200);
    const row = await server.db
      .selectFrom("sessions")
      .select("last_seen_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("throttling", () => {
  it("locks the guessing address out of that email, while the owner still signs in from another address", async () => {
    const throttled = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "3", TRUST_PROXY: "loopback" });
    try {
      const { email } = await signUp(throttled.url);
      const attacker = new Client(throttled.url, { "x-forwarded-for": "198.51.100.66" });
      for (let i = 0; i < 3; i += 1) {
        expect((await attacker.post("/login", { email, password: "wrong password!" })).status).toBe(401);
      }
      // The attacker's address is refused, even with the right password.
      const blocked = await attacker.post("/login", { email, password: PASSWORD });
      expect(blocked.status).toBe(429);
      const retryAfter = Number(blocked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(await blocked.text()).toContain("Too many attempts. Try again in 15 minutes.");
      // The owner, from an address with no failures for this email, is let in.
      const owner = new Client(throttled.url, { "x-forwarded-for": "203.0.113.10" });
      const res = await owner.post("/login", { email, password: PASSWORD });
      expect(res.status).toBe(302);
      expect(owner.cookie(COOKIE)).toBeTruthy();
    } finally {
      await throttled.close();
    }
  });

  it("caps guesses spread over many addresses per e-mail, yet lets the owner in from an address they signed in from before", async () => {
    // One failure per pair; the e-mail's cap is ten times that.
    const throttled = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "1", TRUST_PROXY: "loopback" });
    try {
      const { email } = await signUp(throttled.url);
      const from = (ip: string) => new Client(throttled.url, { "x-forwarded-for": ip });
      // The owner has signed in from home before the attack.
      expect((await from("203.0.113.10").post("/login", { email, password: PASSWORD })).status).toBe(302);
      // Recorded under a hash only.
      const known = await throttled.db.selectFrom("auth_known_addresses").selectAll().execute();
      expect(known.length).toBeGreaterThan(0);
      expect(JSON.stringify(known)).not.toContain("203.0.113.10");

      for (let i = 0; i < 10; i += 1) {
        expect((await from(`198.51.100.${i + 1}`).post("/login", { email, password: "wrong guess!" })).status).toBe(
          401,
        );
      }
      // Past the cap, a fresh address gets nothing until the window resets: the total is capped.
      const refused = await from("198.51.100.200").post("/login", { email, password: "wrong guess!" });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      for (let i = 0; i < 5; i += 1) {
        expect((await from(`192.0.2.${i + 1}`).post("/login", { email, password: "wrong guess!" })).status).toBe(429);
      }
      // The owner on a new address is refused too (ADR 004's trade-off) ...
      expect((await from("203.0.113.99").post("/login", { email, password: PASSWORD })).status).toBe(429);
      // ... but gets in from the address they signed in from before.
      const owner = from("203.0.113.10");
      expect((await owner.post("/login", { email, password: PASSWORD })).status).toBe(302);
      expect(owner.cookie(COOKIE)).toBeTruthy();

      // An address is recognised only for as long as a session started there may live.
      await throttled.db
        .updateTable("auth_known_addresses")
        .set({ expires_at: new Date(0).toISOString() })
        .execute();
      expect((await from("203.0.113.10").post("/login", { email, password: PASSWORD })).status).toBe(429);
      await purgeExpiredKnownAddresses(throttled.db);
      expect(await throttled.db.selectFrom("auth_known_addresses").selectAll().execute()).toEqual([]);
    } finally {
      await throttled.close();
    }
  });

  it("counts every IPv6 address of one /64 as one client, for the pair, the address and sign-ups", async () => {
    const throttled = await startServer({
      AUTH_THROTTLE_MAX_FAILURES: "3",
      SIGNUPS_PER_ADDRESS_PER_HOUR: "2",
      TRUST_PROXY: "loopback",
    });
    try {
      const { email } = await signUp(throttled.url);
      const from = (ip: string) => new Client(throttled.url, { "x-forwarded-for": ip });
      // Per (e-mail, address): three guesses from three addresses of one /64 spend the pair's allowance.
      for (const ip of ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:fffe"]) {
        expect((await from(ip).post("/login", { email, password: "wrong guess!" })).status).toBe(401);
      }
      expect((await from("2001:db8:1:2::99").post("/login", { email, password: PASSWORD })).status).toBe(429);
      // The neighbouring /64 is someone else.
      expect((await from("2001:db8:1:3::1").post("/login", { email, password: PASSWORD })).status).toBe(302);

      // Per address across e-mails (four times the allowance): a fresh address in the /64 per guess does not help.
      for (let i = 0; i < 12; i += 1) {
        const ip = `2001:db8:9:9::${(i + 1).toString(16)}`;
        expect((await from(ip).post("/login", { email: uniqueEmail(), password: "x" })).status).toBe(401);
      }
      expect((await from("2001:db8:9:9::abcd").post("/login", { email: uniqueEmail(), password: "x" })).status).toBe(
        429,
      );

      // Sign-ups per address, likewise.
      for (const ip of ["2001:db8:5:5::1", "2001:db8:5:5::2"]) {
        expect((await from(ip).post("/signup", { email: uniqueEmail(), password: PASSWORD })).status).toBe(200);
      }
      expect((await from("2001:db8:5:5::3").post("/signup", { email: uniqueEmail(), password: PASSWORD })).status).toBe(
        429,
      );
    } finally {
      await throttled.close();
    }
  });

  it("counts a burst of parallel guesses exactly: no more than the allowance reach the password check", async () => {
    const throttled = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "3" });
    try {
      const { email } = await signUp(throttled.url);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          new Client(throttled.url).post("/login", { email, password: "wrong password!" }).then((r) => r.status),
        ),
      );
      // Each guess takes a point from the pair's and the address's counters, independently: under contention a
      // guess can win one and lose the other, so fewer than 3 may get through — never more.
      const checked = statuses.filter((s) => s === 401).length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - checked);
    } finally {
      await throttled.close();
    }
  });

  it("throttles per client address across emails, and believes X-Forwarded-For only behind a trusted proxy", async () => {
    const proxied = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "3", TRUST_PROXY: "loopback" });
    try {
      const from = (ip: string) => new Client(proxied.url, { "x-forwarded-for": ip });
      // An address may fail four times the per-email allowance across emails.
      for (let i = 0; i < 12; i += 1) {
        expect((await from("198.51.100.7").post("/login", { email: uniqueEmail(), password: "x" })).status).toBe(401);
      }
      // Same address, yet another email: refused.
      expect((await from("198.51.100.7").post("/login", { email: uniqueEmail(), password: "x" })).status).toBe(429);
      // Another client behind the same proxy is not lumped in.
      expect((await from("198.51.100.8").post("/login", { email: uniqueEmail(), password: "x" })).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it("cannot be dodged by spoofing X-Forwarded-For when no proxy is trusted", async () => {
    const direct = await startServer({ AUTH_THROTTLE_MAX_FAILURES: "3" });
    try {
      for (let i = 0; i < 12; i += 1) {
        const spoofed = new Client(direct.url, { "x-forwarded-for": `192.0.2.${i}` });
        await spoofed.post("/login", { email: uniqueEmail(), password: "x" });
      }
      const res = await new Client(direct.url, { "x-forwarded-for": "192.0.2.99" }).post("/login", {
        email: uniqueEmail(),
        password: "x",
      });
      expect(res.status).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it("throttles sign-ups per address, failed or successful, and the counters survive a restart", async () => {
    const first = await startServer({ SIGNUPS_PER_ADDRESS_PER_HOUR: "3" });
    const url = first.database.url;
    try {
      expect((await new Client(first.url).post("/signup", { email: "bad", password: "x" })).status).toBe(400);
      await signUp(first.url);
      await signUp(first.url);
      const refused = await new Client(first.url).post("/signup", { email: uniqueEmail(), password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(59 * 60);
      expect(await refused.text()).toContain("Too many attempts");
      await first.atrium.close();
      const { createAtriumServer } = await import("../../server");
      const again = await createAtriumServer({
        env: {
          NODE_ENV: "test",
          DATABASE_URL: url,
          PORT: "0",
          HOST: "127.0.0.1",
          SEED_DEMO: "false",
          LOG_LEVEL: "silent",
          SHUTDOWN_TIMEOUT_MS: "300",
          SIGNUPS_PER_ADDRESS_PER_HOUR: "3",
        },
      });
      const base = await again.listen();
      try {
        expect((await new Client(base).post("/signup", { email: uniqueEmail(), password: PASSWORD })).status).toBe(429);
      } finally {
        await again.close();
      }
    } finally {
      await first.database.drop();
    }
  });
});

describe("cross-site request forgery", () => {
  it("refuses a console form post from another origin", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post(
      "/?index",
      { intent: "create", name: "Evil", slug: "evil-co" },
      { origin: "https://evil.test", "sec-fetch-site": "cross-site" },
    );
    expect(res.status).toBe(403);
    const rows = await server.db.selectFrom("workspaces").select("slug").where("slug", "=", "evil-co").execute();
    expect(rows).toHaveLength(0);
  });

  it("refuses a cross-site sign-out and sign-in", async () => {
    const { client, email } = await signUp(server.url);
    expect(
      (await client.post("/logout", {}, { origin: "https://evil.test", "sec-fetch-site": "cross-site" })).status,
    ).toBe(403);
    expect((await client.get("/")).status).toBe(200);
    const login = await new Client(server.url).post(
      "/login",
      { email, password: PASSWORD },
      { origin: "https://evil.test", "sec-fetch-site": "cross-site" },
    );
    expect(login.status).toBe(403);
  });

  it.each([
    ["an Origin of another host", { origin: "https://evil.test" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
    ["Origin: null (a sandboxed frame)", { origin: "null" }],
  ])("refuses a page form post with %s", async (_label, headers) => {
    const { client } = await signUp(server.url);
    const res = await client.request("/?index", {
      method: "POST",
      body: new URLSearchParams({ intent: "create", name: "Forged", slug: "forged-co" }),
      headers,
    });
    expect(res.status).toBe(403);
    expect(await server.db.selectFrom("workspaces").select("id").where("slug", "=", "forged-co").execute()).toEqual([]);
  });

  it("accepts a post without Origin or Sec-Fetch-Site (not a browser, so no ambient cookie to abuse)", async () => {
    const { client } = await signUp(server.url);
    const res = await client.request("/?index", {
      method: "POST",
      body: new URLSearchParams({ intent: "create", name: "Scripted", slug: "scripted-co" }),
    });
    expect(res.status).toBe(302);
  });

  it("refuses a cross-site JSON call to the console's internal API on Sec-Fetch-Site alone", async () => {
    const { client } = await signUp(server.url);
    const res = await client.request("/api/editor/session", {
      method: "POST",
      body: JSON.stringify({ workspaceId: "x" }),
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "Cross-site request refused", statusCode: 403 });
  });

  it("refuses a cross-origin JSON call to the console's internal API", async () => {
    const { client } = await signUp(server.url);
    const res = await client.postJson("/api/editor/session", { workspaceId: "x" }, { origin: "https://evil.test" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "Cross-site request refused", statusCode: 403 });
  });
});

describe("what a form post must be", () => {
  it("answers a sign-in sent as JSON with 415, not a server error", async () => {
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      body: JSON.stringify({ email: "a@example.test", password: PASSWORD }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(415);
  });

  it("answers an oversized form streamed without a length with 413", async () => {
    const small = await startServer({ MAX_BODY_BYTES: "2048" });
    try {
      const chunk = new TextEncoder().encode(`email=${"a".repeat(1500)}`);
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(chunk);
          controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await fetch(`${small.url}/login`, {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe("suspended accounts", () => {
  it("cannot sign in, and lose their sessions at once", async () => {
    const { client, email } = await signUp(server.url);
    const user = await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await setStatus(server.db, email, "suspended");
    const sessions = await server.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(sessions).toEqual([]);
    expect((await client.get("/")).status).toBe(302);
    const res = await new Client(server.url).post("/login", { email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("This account is suspended");
  });
});
