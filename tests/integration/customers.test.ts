/**
 * Customers of a business's site (issue 16, ADR 029), through real HTTP on this dialect: signing in by an
 * e-mailed code or link (single use, 15 minutes, 5 tries, no account oracle, invitation-only sites), sessions
 * that belong to one site, the portal's pages and the customer API refusing every other customer's records with
 * a 404, tickets answered from the console's inbox, guest tickets and their manage links, guest claim, and the
 * customer's data exported whole and erased.
 */
import { hostsOf, servicesOf } from "~/modules/scheduling/services.server";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { listTables } from "../../db/client";
import {
  Client,
  addMember,
  createWorkspace,
  lastMailTo,
  linkIn,
  mailedText,
  signUp,
  uniqueEmail,
} from "../helpers/client";
import { askForCode, codeMailTo, customerCookie, signInCustomer } from "../helpers/customers";
import { askSite } from "../helpers/chat";
import { addToCart, buy, openShop } from "../helpers/shop";
import { couponsOf } from "~/modules/commerce/prices.server";
import { startServer, type TestServer } from "../helpers/server";
import { setTestClock } from "~/lib/clock.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50", CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000" });
});
afterAll(() => server.close());
afterEach(() => setTestClock(undefined));

let sites = 0;
/** A signed-in owner with a new workspace (selected), and its site's slug. */
async function business(prefix = "cust") {
  sites += 1;
  const slug = `${prefix}-${process.pid}-${sites}`;
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, `Bakery ${sites}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { owner: client, ownerEmail: email, slug, workspaceId: id };
}

const customerEmail = () => uniqueEmail("customer");
const visitor = () => new Client(server.url);

/** Runs the queued jobs (ticket e-mails) now. */
async function drainJobs() {
  for (let i = 0; i < 20; i += 1) {
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

async function openTicket(client: Client, slug: string, subject = "Where is my order?") {
  const res = await client.post(`/${slug}/tickets`, { subject, message: "It was due yesterday.\nThanks" });
  expect(res.status).toBe(303);
  return /\/tickets\/([0-9A-Z]+)/.exec(res.headers.get("location") ?? "")![1]!;
}

describe("signing in with an e-mailed code", () => {
  it("sends a code, refuses a wrong one with the tries left, and signs in with the right one on this site only", async () => {
    const { slug } = await business();
    const email = customerEmail();
    const client = visitor();
    expect((await client.get(`/${slug}/account`)).headers.get("location")).toBe(
      `/${slug}/login?next=%2F${slug}%2Faccount`,
    );
    const challenge = await askForCode(client, slug, email, `/${slug}/tickets`);
    const { code, text } = codeMailTo(server.url, email);
    expect(text).toContain("work once, for 15 minutes");
    // The outbox keeps the mail without its code or link.
    const stored = await lastMailTo(server.url, email);
    expect(stored.body).not.toContain(`${code.slice(0, 3)} ${code.slice(3)}`);
    expect(stored.body).toContain("[sent by e-mail, not stored]");

    const wrong = await client.post(`/${slug}/login`, {
      intent: "code",
      challenge,
      code: code === "000000" ? "111111" : "000000",
      email,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("4 tries left");
    const right = await client.post(`/${slug}/login`, {
      intent: "code",
      challenge,
      code,
      email,
      next: `/${slug}/tickets`,
    });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/${slug}/tickets`);
    expect(right.headers.get("set-cookie")).toMatch(new RegExp(`^${customerCookie(slug)}=.+HttpOnly; SameSite=Lax`));
    const account = await client.get(`/${slug}/account`);
    expect(account.status).toBe(200);
    expect(account.headers.get("cache-control")).toBe("private, no-store");
    expect(await account.text()).toContain(email);

    // Spent: the same code again does nothing.
    const again = await visitor().post(`/${slug}/login`, { intent: "code", challenge, code, email });
    expect(again.status).toBe(401);
  });

  it("stops a code after 5 wrong tries, and after 15 minutes", async () => {
    const { slug } = await business();
    const email = customerEmail();
    const client = visitor();
    let challenge = await askForCode(client, slug, email);
    let { code } = codeMailTo(server.url, email);
    const wrongCode = code === "999999" ? "999998" : "999999";
    for (let i = 0; i < 5; i += 1) {
      expect((await client.post(`/${slug}/login`, { intent: "code", challenge, code: wrongCode, email })).status).toBe(
        401,
      );
    }
    const late = await client.post(`/${slug}/login`, { intent: "code", challenge, code, email });
    expect(late.status).toBe(401);
    expect(await late.text()).toContain("expired or was already used");

    challenge = await askForCode(client, slug, email);
    ({ code } = codeMailTo(server.url, email));
    const issued = Date.now();
    setTestClock(() => new Date(issued + 16 * 60_000));
    expect((await client.post(`/${slug}/login`, { intent: "code", challenge, code, email })).status).toBe(401);
    expect(client.cookie(customerCookie(slug))).toBeUndefined();
  });

  it("answers the same page for a known and an unknown address; an invitation-only site mails 'no account' and signs nobody up", async () => {
    const { slug, owner, workspaceId } = await business();
    const known = customerEmail();
    await signInCustomer(server.url, slug, known);
    const page = async (email: string) =>
      (await (await visitor().post(`/${slug}/login`, { intent: "send", email })).text())
        .replaceAll(email, "EMAIL")
        .replace(/name="challenge" value="[^"]+"/, "")
        .replace(/nonce="[^"]+"/g, "");
    expect(await page(known)).toBe(await page(customerEmail()));

    expect((await owner.post("/customers", { intent: "signup", signup: "invite" })).status).toBe(200);
    const stranger = customerEmail();
    const challenge = await askForCode(visitor(), slug, stranger);
    const mail = (await lastMailTo(server.url, stranger)).body;
    expect(mail).toContain("there is no account for it");
    expect(mail).not.toMatch(/\n {4}\d{3} \d{3}\n/);
    const guess = await visitor().post(`/${slug}/login`, {
      intent: "code",
      challenge,
      code: "123456",
      email: stranger,
    });
    expect(guess.status).toBe(401);
    const customers = await server.db
      .selectFrom("customers")
      .select("email")
      .where("workspace_id", "=", workspaceId)
      .execute();
    expect(customers.map((c) => c.email)).toEqual([known]);

    // A customer the business adds can sign in.
    const invited = customerEmail();
    expect((await owner.post("/customers", { intent: "add", email: invited, name: "Grace" })).status).toBe(302);
    const client = await signInCustomer(server.url, slug, invited);
    expect((await client.get(`/${slug}/account`)).status).toBe(200);
  });

  it("signs in by the e-mailed link: the page asks before it spends the link, which then works once", async () => {
    const { slug } = await business();
    const email = customerEmail();
    await askForCode(visitor(), slug, email, `/${slug}/saved`);
    const { link } = codeMailTo(server.url, email);
    // Another browser than the one that asked (the link is not tied to a cookie).
    const browser = visitor();
    const shown = await browser.get(link);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain(`You are signing in as <strong>${email}</strong>`);
    const token = new URL(link, server.url).searchParams.get("token")!;
    const done = await browser.post("/auth/callback", { token });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`/${slug}/saved`);
    expect((await browser.get(`/${slug}/saved`)).status).toBe(200);
    const reused = await visitor().get(link);
    expect(await reused.text()).toContain("This link no longer works");
    expect((await visitor().post("/auth/callback", { token })).status).toBe(401);
  });
});

describe("sessions belong to one site", () => {
  it("signs out a customer whose cookie is presented on another site, and ends every session with 'sign out everywhere'", async () => {
    const a = await business();
    const b = await business();
    const email = customerEmail();
    const client = await signInCustomer(server.url, a.slug, email);
    const secret = client.cookie(customerCookie(a.slug))!;
    const thief = visitor();
    thief.setCookie(customerCookie(b.slug), secret);
    const elsewhere = await thief.get(`/${b.slug}/account`);
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get("location")).toContain(`/${b.slug}/login`);
    const api = await thief.get(`/api/v1/profile?site=${b.slug}`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: "Unauthorized", statusCode: 401 });

    const second = await signInCustomer(server.url, a.slug, email);
    expect((await second.get(`/${a.slug}/account`)).status).toBe(200);
    expect((await client.post(`/${a.slug}/profile`, { intent: "sign-out-everywhere" })).status).toBe(303);
    expect((await second.get(`/${a.slug}/account`)).status).toBe(302);
  });

  it("refuses a cross-site write with the customer's cookie (Origin check)", async () => {
    const { slug } = await business();
    const client = await signInCustomer(server.url, slug, customerEmail());
    const forged = await client.request(`/api/v1/profile?site=${slug}`, {
      method: "PATCH",
      body: JSON.stringify({ name: "Mallory" }),
      headers: { "content-type": "application/json", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(forged.status).toBe(403);
    const profile = (await (await client.get(`/api/v1/profile?site=${slug}`)).json()) as { name: string };
    expect(profile.name).toBe("");
  });
});

describe("the portal and the customer API show a customer only their own records", () => {
  it("answers 404 to customer A for every page and route of customer B's ticket, on the same site and another", async () => {
    const site = await business();
    const other = await business();
    const a = await signInCustomer(server.url, site.slug, customerEmail());
    const b = await signInCustomer(server.url, site.slug, customerEmail());
    const bTicket = await openTicket(b, site.slug);
    const c = await signInCustomer(server.url, other.slug, customerEmail());
    const elsewhere = await openTicket(c, other.slug);

    for (const id of [bTicket, elsewhere]) {
      expect((await a.get(`/${site.slug}/tickets/${id}`)).status).toBe(404);
      expect((await a.post(`/${site.slug}/tickets/${id}`, { intent: "reply", body: "mine now" })).status).toBe(404);
      expect((await a.post(`/${site.slug}/tickets/${id}`, { intent: "close" })).status).toBe(404);
      const api = `/api/v1/tickets/${id}?site=${site.slug}`;
      expect((await a.get(api)).status).toBe(404);
      expect((await a.postJson(`/api/v1/tickets/${id}/replies?site=${site.slug}`, { body: "x" })).status).toBe(404);
      expect((await a.postJson(`/api/v1/tickets/${id}/close?site=${site.slug}`, {})).status).toBe(404);
    }
    const list = (await (await a.get(`/api/v1/tickets?site=${site.slug}`)).json()) as { total: number };
    expect(list.total).toBe(0);
    expect(await (await a.get(`/${site.slug}/tickets`)).text()).not.toContain("Where is my order?");
    // B's ticket is untouched.
    const messages = await server.db
      .selectFrom("ticket_messages")
      .select("body")
      .where("ticket_id", "=", bTicket)
      .execute();
    expect(messages).toHaveLength(1);
  });

  it("serves the profile and tickets over the API with a bearer token of the site, and the rate-limit headers", async () => {
    const site = await business();
    const other = await business();
    const email = customerEmail();
    const api = visitor();
    const asked = await api.postJson(`/api/v1/auth/code?site=${site.slug}`, { email });
    expect(asked.status).toBe(202);
    expect(asked.headers.get("x-ratelimit-limit")).toBe("300");
    const { challengeId } = (await asked.json()) as { challengeId: string };
    const { code } = codeMailTo(server.url, email);
    const issued = await api.postJson(`/api/v1/auth/token?site=${site.slug}`, { challengeId, code });
    expect(issued.status).toBe(201);
    const { accessToken } = (await issued.json()) as { accessToken: string };
    const bearer = { authorization: `Bearer ${accessToken}` };
    const app = new Client(server.url, bearer);

    const patched = await app.request(`/api/v1/profile?site=${site.slug}`, {
      method: "PATCH",
      body: JSON.stringify({ name: "Ada", notifications: { orderUpdates: false }, marketingConsent: true }),
      headers: { "content-type": "application/json" },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      email,
      name: "Ada",
      notifications: { ticketReplies: true, orderUpdates: false },
      marketingConsent: true,
    });
    const bad = await app.request(`/api/v1/profile?site=${site.slug}`, {
      method: "PATCH",
      body: JSON.stringify({ phone: "call me maybe", tags: ["vip"] }),
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "Bad Request", statusCode: 400 });

    const created = await app.postJson(`/api/v1/tickets?site=${site.slug}`, {
      subject: "Gluten free?",
      message: "Is it?",
    });
    expect(created.status).toBe(201);
    const ticket = (await created.json()) as { id: string; number: number; messages: unknown[] };
    expect(ticket).toMatchObject({ number: 1, messages: [{ author: "customer", body: "Is it?" }] });
    expect(created.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);

    // The same token names nobody on another site.
    expect((await app.get(`/api/v1/profile?site=${other.slug}`)).status).toBe(401);
    expect((await app.request(`/api/v1/auth/token?site=${site.slug}`, { method: "DELETE" })).status).toBe(204);
    expect((await app.get(`/api/v1/profile?site=${site.slug}`)).status).toBe(401);
  });
});

describe("tickets between a customer and the business", () => {
  it("carries a customer's request to the inbox and the operator's reply to the portal and the customer's e-mail", async () => {
    const { slug, owner, ownerEmail } = await business();
    const email = customerEmail();
    const customer = await signInCustomer(server.url, slug, email);
    const id = await openTicket(customer, slug, "Birthday cake for Saturday");
    await drainJobs();
    expect((await lastMailTo(server.url, ownerEmail)).subject).toBe("New request #1 “Birthday cake for Saturday”");

    const inbox = await (await owner.get("/inbox")).text();
    expect(inbox).toContain("Birthday cake for Saturday");
    expect(inbox).toContain("1 unread");
    const replied = await owner.post(`/inbox/tickets/${id}`, { intent: "reply", body: "Yes — chocolate or lemon?" });
    expect(replied.status).toBe(302);
    await drainJobs();
    const mail = await lastMailTo(server.url, email);
    expect(mail.subject).toBe("Re: Birthday cake for Saturday [#1]");
    expect(mail.body).toContain("Yes — chocolate or lemon?");
    expect(mail.body).toContain(`/${slug}/tickets/${id}`);

    const page = await (await customer.get(`/${slug}/tickets/${id}`)).text();
    expect(page).toContain("Yes — chocolate or lemon?");
    expect(page).toContain("Answered");
    expect((await customer.post(`/${slug}/tickets/${id}`, { intent: "close" })).status).toBe(303);
    const closed = (await (await customer.get(`/api/v1/tickets/${id}?site=${slug}`)).json()) as { status: string };
    expect(closed.status).toBe("closed");
  });

  it("lets a guest follow a request by its manage link, and attaches it to the customer who proves the address — not to one who types it", async () => {
    const { slug, owner, workspaceId } = await business();
    const guestEmail = customerEmail();
    expect(
      (
        await visitor().post(`/api/v1/contact?site=${slug}`, {
          name: "Lin",
          email: guestEmail,
          message: "Do you deliver?",
        })
      ).status,
    ).toBe(303);
    const message = await server.db
      .selectFrom("contact_messages")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    const toTicket = await owner.post(`/inbox/${message.id}`, { intent: "to-ticket" });
    expect(toTicket.status).toBe(302);
    const ticketId = toTicket.headers.get("location")!.split("/").pop()!;
    await owner.post(`/inbox/tickets/${ticketId}`, { intent: "reply", body: "Within 5 km, yes." });
    await drainJobs();
    const link = linkIn(mailedText(server.url, guestEmail), "/portal/callback");
    expect((await lastMailTo(server.url, guestEmail)).body).not.toContain(
      new URL(link, server.url).searchParams.get("token")!,
    );

    const guest = visitor();
    const landed = await guest.get(link);
    expect(landed.status).toBe(303);
    expect(landed.headers.get("location")).toBe(`/${slug}/tickets/${ticketId}`);
    expect(await (await guest.get(`/${slug}/tickets/${ticketId}`)).text()).toContain("Within 5 km, yes.");
    expect((await guest.post(`/${slug}/tickets/${ticketId}`, { intent: "reply", body: "Great, thanks" })).status).toBe(
      303,
    );
    // The link opens this ticket only.
    expect((await guest.get(`/${slug}/tickets`)).status).toBe(302);

    // Another customer types the guest's address into the contact form: nothing becomes theirs.
    const mallory = await signInCustomer(server.url, slug, customerEmail());
    await mallory.post(`/api/v1/contact?site=${slug}`, { name: "Lin", email: guestEmail, message: "mine" });
    expect((await mallory.get(`/${slug}/tickets/${ticketId}`)).status).toBe(404);
    expect(((await (await mallory.get(`/api/v1/tickets?site=${slug}`)).json()) as { total: number }).total).toBe(0);

    // The guest proves the address by signing in: the ticket is theirs.
    const lin = await signInCustomer(server.url, slug, guestEmail);
    const list = (await (await lin.get(`/api/v1/tickets?site=${slug}`)).json()) as { tickets: { id: string }[] };
    expect(list.tickets.map((t) => t.id)).toEqual([ticketId]);
  });
});

/** Every row of every table in which any value mentions one of `needles`. */
async function rowsMentioning(needles: string[]) {
  const found: { table: string; row: Record<string, unknown> }[] = [];
  for (const table of await listTables(server.db, server.database.dialect)) {
    if (table.startsWith("kysely_migration") || table === "rate_limit_counters") continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.db);
    for (const row of rows.rows) {
      const text = JSON.stringify(Object.values(row));
      if (needles.some((n) => text.includes(n))) found.push({ table, row });
    }
  }
  return found;
}

describe("a customer's data", () => {
  it("exports every row that names the customer, and erase leaves none of their personal fields", async () => {
    const { slug, owner, workspaceId } = await business();
    const email = customerEmail();
    const customer = await signInCustomer(server.url, slug, email);
    await customer.post(`/${slug}/profile`, {
      intent: "details",
      name: "Zelda Quartermaine",
      phone: "+44 20 7946 0000",
    });
    const ticket = await openTicket(customer, slug, "Allergy question");
    await customer.post(`/api/v1/contact?site=${slug}`, { name: "Zelda Quartermaine", email, message: "Hello there" });
    await owner.post(`/inbox/tickets/${ticket}`, { intent: "reply", body: "Noted." });
    // An order from the shop (issue 17), with a coupon: the order, its cart and the coupon's use name them.
    const shop = await openShop(server.db, workspaceId);
    await couponsOf(server.db, workspaceId).create(
      { code: "ZELDA", kind: "percent", value: 5, perCustomerLimit: 1 },
      null,
    );
    await addToCart(customer, slug, shop.small);
    await customer.post(`/${slug}/cart`, { intent: "coupon", code: "ZELDA" });
    const orderId = await buy(customer, slug, shop, { email, name: "Zelda Quartermaine" });
    // A booking (issue 19), with what they answered: the booking names them, and so do its e-mails.
    const host = await hostsOf(server.db, workspaceId).create(null, {
      name: "Mia",
      timeZone: "UTC",
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "00:00", end: "24:00" })),
    });
    const service = await servicesOf(server.db, workspaceId).create(null, {
      name: "Fitting",
      durationMinutes: 30,
      questions: [{ id: "size", label: "Your size?" }],
      hostIds: [host.id],
    });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const booked = await customer.postJson(
      "/api/v1/bookings",
      {
        service: service.slug,
        start: `${tomorrow}T10:00:00Z`,
        name: "Zelda Quartermaine",
        email,
        phone: "+44 20 7946 0000",
        answers: { size: "3 Church Street fits" },
      },
      { "x-atrium-site": slug },
    );
    expect(booked.status).toBe(201);
    // A conversation with the site assistant (issue 20), signed in: it is theirs to take away, and goes with them.
    expect((await owner.post("/inbox/assistant", { enabled: "on", greeting: "" })).status).toBe(200);
    const opened = await customer.postJson(`/api/v1/${slug}/chat/session`, {});
    expect(opened.status).toBe(201);
    const conversation = ((await opened.json()) as { id: string }).id;
    await askSite(customer, slug, conversation, "What was my last order?");
    await drainJobs();
    const { id } = await server.db
      .selectFrom("customers")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

    const res = await customer.get(`/${slug}/profile/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("attachment");
    const exported = await res.text();
    const rows = await rowsMentioning([id, email]);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.map((r) => r.table)).toEqual(
      expect.arrayContaining(["orders", "carts", "coupon_uses", "bookings", "chat_conversations"]),
    );
    for (const { table, row } of rows) {
      // Sessions are exported without their hash (the secret's digest), by their times; a coupon's use by whose.
      const key =
        table === "customer_sessions"
          ? String(row.created_at)
          : table === "coupon_uses"
            ? String(row.buyer)
            : String(row.id ?? row.ref ?? row.created_at);
      expect(exported, `${table} ${key}`).toContain(key);
    }

    const refused = await customer.post(`/${slug}/profile`, { intent: "erase" });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toContain("Tick the box");
    const erased = await customer.post(`/${slug}/profile`, { intent: "erase", confirm: "erase" });
    expect(erased.status).toBe(303);
    expect((await customer.get(`/${slug}/account`)).status).toBe(302);
    const left = await rowsMentioning([email, "Zelda Quartermaine", "+44 20 7946 0000", "3 Church Street"]);
    expect(left.map((l) => l.table)).toEqual([]);
    // The order stays for the books: its amounts and the country it was taxed in, naming no one.
    const kept = await server.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(kept.total).toBeGreaterThan(0);
    expect(JSON.parse(kept.address!)).toEqual({ country: "GB", region: "" });
    expect(kept.erased_at).not.toBeNull();
    const audit = await server.db
      .selectFrom("audit_events")
      .select("action")
      .where("detail", "like", `%${id}%`)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["customer.exported", "customer.erased"]));
  });
});

describe("the console's customers", () => {
  it("finds customers by name, e-mail and tag, exports them as CSV, and refuses a merge across workspaces", async () => {
    const { slug, owner } = await business();
    const other = await business();
    const email = customerEmail();
    const customer = await signInCustomer(server.url, slug, email);
    await customer.post(`/${slug}/profile`, { intent: "details", name: "Beatrix Kiddo", phone: "" });
    const { id } = await server.db
      .selectFrom("customers")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(
      (
        await owner.post(`/customers/${id}`, {
          intent: "edit",
          name: "Beatrix Kiddo",
          phone: "",
          tags: "vip, =cmd",
          notes: "",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.post(`/customers/${id}`, {
          intent: "edit",
          name: "Beatrix Kiddo",
          phone: "",
          tags: "vip, wholesale",
          notes: "Pays by invoice",
        })
      ).status,
    ).toBe(200);
    expect(await (await owner.get("/customers?q=kiddo")).text()).toContain(email);
    expect(await (await owner.get("/customers?tag=wholesale")).text()).toContain(email);
    expect(await (await owner.get("/customers?q=nobody-like-this")).text()).toContain("No customer matches");

    const csv = await owner.get("/customers/export.csv");
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text.split("\n")[0]).toBe(
      "Email,Name,Phone,Tags,Email verified,Accepts marketing,Marketing consent at,Created at,Last seen at",
    );
    expect(text).toContain(`${email},Beatrix Kiddo,,"vip, wholesale",yes,no`);

    // A customer of another workspace is not one to merge (as if the address were unknown).
    const stranger = customerEmail();
    await signInCustomer(server.url, other.slug, stranger);
    const merge = await owner.post(`/customers/${id}`, { intent: "merge", email: stranger });
    expect(merge.status).toBe(404);
    expect(
      await server.db.selectFrom("customers").select("id").where("email", "=", stranger).executeTakeFirst(),
    ).toBeTruthy();
    // Another workspace's customer page is a 404 too.
    const { id: strangerId } = await server.db
      .selectFrom("customers")
      .select("id")
      .where("email", "=", stranger)
      .executeTakeFirstOrThrow();
    expect((await owner.get(`/customers/${strangerId}`)).status).toBe(404);
  });
});

/** A page created and published through the editor API, as the console does. */
async function publishedPage(owner: Client, slug: string): Promise<{ id: string; slug: string }> {
  const origin = new URL(server.url).origin;
  const created = await owner.request("/api/editor/pages", {
    method: "POST",
    body: JSON.stringify({ title: "Visit us", slug, blocks: [{ type: "richText", markdown: "Open daily." }] }),
    headers: { origin, "content-type": "application/json" },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const published = await owner.request(`/api/editor/pages/${id}/publish`, { method: "POST", headers: { origin } });
  expect(published.status).toBe(200);
  return { id, slug };
}

describe("saved pages", () => {
  it("asks a signed-out visitor to sign in, offers the save again, and lists the page once saved", async () => {
    const { slug, owner } = await business();
    await publishedPage(owner, "welcome"); // the first page is the home page, which has no "Save"
    const page = await publishedPage(owner, "visit");
    const html = await (await visitor().get(`/${slug}/${page.slug}`)).text();
    expect(html).toContain(`action="/${slug}/saved?save=${page.id}"`);

    const client = visitor();
    const asked = await client.post(`/${slug}/saved?save=${page.id}`, { intent: "save", ref: page.id });
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(
      `/${slug}/login?${new URLSearchParams({ next: `/${slug}/saved?save=${page.id}` })}`,
    );
    await signInCustomer(server.url, slug, customerEmail(), client);
    const offered = await (await client.get(`/${slug}/saved?save=${page.id}`)).text();
    expect(offered).toContain("to find it here again?");
    expect((await client.post(`/${slug}/saved`, { intent: "save", ref: page.id })).status).toBe(303);
    const list = await (await client.get(`/${slug}/saved`)).text();
    expect(list).toContain(`href="/${slug}/${page.slug}"`);
    expect(list).not.toContain("to find it here again?");
    // Another workspace's page cannot be saved here.
    const other = await business();
    const foreign = await publishedPage(other.owner, "elsewhere");
    expect((await client.post(`/${slug}/saved`, { intent: "save", ref: foreign.id })).status).toBe(404);
  });
});

describe("telling the team", () => {
  it("e-mails each member as they chose, counts the unread in the sidebar, and sums it up for the desktop shell", async () => {
    const { slug, owner, ownerEmail } = await business();
    const editor = await signUp(server.url, uniqueEmail("editor"));
    await addMember(server.url, owner, editor, "editor");
    // The owner turns ticket e-mails off; the editor (off by default) turns them on.
    expect((await owner.post("/inbox", { newMessages: "on" })).status).toBe(200);
    expect((await editor.client.post("/inbox", { newTickets: "on" })).status).toBe(200);
    const mailsTo = async (to: string) =>
      server.db.selectFrom("mail_messages").select("subject").where("to_address", "=", to).execute();
    const before = (await mailsTo(ownerEmail)).length;

    const customer = await signInCustomer(server.url, slug, customerEmail());
    await openTicket(customer, slug, "Oat milk?");
    await drainJobs();
    expect((await mailsTo(editor.email)).map((m) => m.subject)).toContain("New request #1 “Oat milk?”");
    expect((await mailsTo(ownerEmail)).length).toBe(before);

    const shell = await (await editor.client.get("/inbox")).text();
    expect(shell).toMatch(/class="nav-badge">1<span class="visually-hidden"> unread<\/span>/);
    const summary = await editor.client.get("/api/editor/inbox/summary");
    expect(summary.status).toBe(200);
    expect(await summary.json()).toEqual({ unread: 1, latest: expect.stringContaining("Oat milk?") });
    expect((await visitor().get("/api/editor/inbox/summary")).status).toBe(401);
  });
});

describe("refusals that change nothing", () => {
  it("moves an account to a new address only by the code sent there, and never onto another customer's address", async () => {
    const { slug, workspaceId } = await business();
    const a = customerEmail();
    const b = customerEmail();
    const client = await signInCustomer(server.url, slug, a);
    await signInCustomer(server.url, slug, b);

    // To B's address: the code goes to B's mailbox; even entered, it moves nothing.
    const asked = await client.post(`/${slug}/profile`, { intent: "email", email: b });
    const challenge = /name="challenge" value="([^"]+)"/.exec(await asked.text())![1]!;
    const taken = await client.post(`/${slug}/profile`, {
      intent: "email-code",
      challenge,
      code: codeMailTo(server.url, b).code,
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("Another account uses this e-mail address");
    const emails = async () =>
      (await server.db.selectFrom("customers").select("email").where("workspace_id", "=", workspaceId).execute())
        .map((c) => c.email)
        .sort();
    expect(await emails()).toEqual([a, b].sort());

    // To a fresh address: the account moves, and signs in there.
    const fresh = customerEmail();
    const again = await client.post(`/${slug}/profile`, { intent: "email", email: fresh });
    const second = /name="challenge" value="([^"]+)"/.exec(await again.text())![1]!;
    const wrong = await client.post(`/${slug}/profile`, { intent: "email-code", challenge: second, code: "12345" });
    expect(wrong.status).toBe(401);
    const moved = await client.post(`/${slug}/profile`, {
      intent: "email-code",
      challenge: second,
      code: codeMailTo(server.url, fresh).code,
    });
    expect(moved.status).toBe(200);
    expect(await moved.text()).toContain(`Your account now uses ${fresh}.`);
    expect(await emails()).toEqual([b, fresh].sort());
    const profile = (await (await client.get(`/api/v1/profile?site=${slug}`)).json()) as { email: string };
    expect(profile.email).toBe(fresh);
  });

  it("refuses a forged, expired or revoked manage link, and a session left idle too long", async () => {
    const { slug, owner, workspaceId } = await business();
    const guestEmail = customerEmail();
    await visitor().post(`/api/v1/contact?site=${slug}`, { name: "Noor", email: guestEmail, message: "Gift cards?" });
    const { id: messageId } = await server.db
      .selectFrom("contact_messages")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    const ticketId = (await owner.post(`/inbox/${messageId}`, { intent: "to-ticket" })).headers
      .get("location")!
      .split("/")
      .pop()!;
    await owner.post(`/inbox/tickets/${ticketId}`, { intent: "reply", body: "Yes, from £10." });
    await drainJobs();
    const link = linkIn(mailedText(server.url, guestEmail), "/portal/callback");

    const forged = await visitor().get(`/portal/callback?token=${"A".repeat(43)}`);
    expect(forged.status).toBe(200);
    expect(forged.headers.get("set-cookie")).toBeNull();
    expect(await forged.text()).toContain("This link no longer works");

    const issued = Date.now();
    setTestClock(() => new Date(issued + 31 * 86_400_000));
    expect(await (await visitor().get(link)).text()).toContain("This link no longer works");
    setTestClock(undefined);

    const guest = visitor();
    expect((await guest.get(link)).status).toBe(303);
    expect((await guest.get(`/${slug}/tickets/${ticketId}`)).status).toBe(200);
    const revoked = await owner.post(`/inbox/tickets/${ticketId}`, { intent: "revoke-links" });
    expect(await revoked.text()).toContain("1 e-mailed link revoked.");
    expect((await guest.get(`/${slug}/tickets/${ticketId}`)).status).toBe(302);
    expect(await (await visitor().get(link)).text()).toContain("This link no longer works");

    const customer = await signInCustomer(server.url, slug, customerEmail());
    expect((await customer.get(`/${slug}/account`)).status).toBe(200);
    setTestClock(() => new Date(issued + 31 * 86_400_000));
    expect((await customer.get(`/${slug}/account`)).status).toBe(302);
  });
});
