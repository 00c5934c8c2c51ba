/**
 * The contact form of a public site (POST /api/v1/contact) and the console's inbox: a message reaches the
 * workspace the address names — never one the body names — and only that workspace's operators; robots
 * (honeypot) and floods (per address and site) are turned away; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { contactMessagesOf } from "~/modules/contacts/messages.server";

const LIMIT = 3;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR: String(LIMIT) });
});
afterAll(() => server.close());

let sites = 0;
/** A signed-in owner with a new workspace (selected), and its site's slug. */
async function site(prefix = "contact") {
  sites += 1;
  const slug = `${prefix}-${process.pid}-${sites}`;
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, `Bakery ${sites}`, slug);
  const workspace = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { client, email, slug, workspaceId: workspace.id };
}

const visitor = () => new Client(server.url);
const message = (overrides: Record<string, string> = {}) => ({
  name: "Ada Visitor",
  email: "Ada@Example.com",
  message: "Do you bake rye on Saturdays?\nThanks!",
  ...overrides,
});

const storedMessages = (workspaceId: string) =>
  server.db.selectFrom("contact_messages").selectAll().where("workspace_id", "=", workspaceId).execute();

describe("the contact form, posted by a browser", () => {
  it("stores the message as a contact event of the site's workspace and answers 303 to the thank-you", async () => {
    const { slug, workspaceId } = await site();
    const res = await visitor().post(`/api/v1/contact?site=${slug}`, message());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/${slug}/contact?sent=1#contact-form`);
    const [stored] = await storedMessages(workspaceId);
    expect(stored).toMatchObject({
      name: "Ada Visitor",
      message: "Do you bake rye on Saturdays?\nThanks!",
      read_at: null,
    });
    const event = await server.db
      .selectFrom("contact_events")
      .selectAll()
      .where("id", "=", stored!.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      workspace_id: workspaceId,
      email: "ada@example.com",
      type: "message",
      source: "contact-form",
    });

    const thanks = await visitor().get(`/${slug}/contact?sent=1`);
    expect(thanks.status).toBe(200);
    expect(await thanks.text()).toContain("Thank you — your message has been sent.");
  });

  it("sends the refused fields back to the contact page, which shows each message next to its field, and stores nothing", async () => {
    const { slug, workspaceId } = await site();
    const res = await visitor().post(
      `/api/v1/contact?site=${slug}`,
      message({ email: "not-an-address", message: " " }),
    );
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toBe(`/${slug}/contact?error=invalid&field=email&field=message#contact-form`);
    const page = await (await visitor().get(location.replace(/#.*/, ""))).text();
    expect(page).toContain("Your message was not sent");
    expect(page).toContain("Enter a valid e-mail address, like name@example.com");
    expect(page).toContain("Write your message (at most 5,000 characters)");
    expect(page).not.toContain("Enter your name");
    expect(page).toMatch(/aria-invalid="true"[^>]*name="email"|name="email"[^>]*aria-invalid="true"/);
    expect(await storedMessages(workspaceId)).toEqual([]);
  });

  it("tells a robot that filled the hidden field its message went, and stores nothing", async () => {
    const { slug, workspaceId } = await site();
    const res = await visitor().post(`/api/v1/contact?site=${slug}`, message({ website: "https://spam.example" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/${slug}/contact?sent=1#contact-form`);
    expect(await storedMessages(workspaceId)).toEqual([]);
  });

  it("serves the same contact page to every visitor: no cookie, no token, nothing a visitor typed", async () => {
    const { slug } = await site();
    await visitor().post(`/api/v1/contact?site=${slug}`, message({ name: "Secret Sender" }));
    const [a, b] = await Promise.all([visitor().get(`/${slug}/contact`), visitor().get(`/${slug}/contact`)]);
    expect(a.status).toBe(200);
    expect(a.headers.get("set-cookie")).toBeNull();
    const html = await a.text();
    expect(await b.text()).toBe(html);
    expect(html).not.toContain("Secret Sender");
    expect(html).toContain(`action="/api/v1/contact?site=${slug}"`);
    expect(html).toContain('class="site-contact-trap"');
    expect(html).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    expect(html).toContain(`<link rel="canonical" href="${server.url}/${slug}/contact"/>`);
  });
});

describe("POST /api/v1/contact as JSON", () => {
  it("answers 201 for the site the header names, whatever the body says", async () => {
    const { slug, workspaceId } = await site();
    const other = await site();
    const res = await visitor().postJson(
      "/api/v1/contact",
      { ...message(), site: other.slug, workspaceId: other.workspaceId },
      {
        "x-atrium-site": slug,
      },
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: true });
    expect(await storedMessages(workspaceId)).toHaveLength(1);
    expect(await storedMessages(other.workspaceId)).toEqual([]);
  });

  it("stores one message for retries with one Idempotency-Key", async () => {
    const { slug, workspaceId } = await site();
    const headers = { "x-atrium-site": slug, "idempotency-key": "retry-1" };
    expect((await visitor().postJson("/api/v1/contact", message(), headers)).status).toBe(201);
    expect((await visitor().postJson("/api/v1/contact", message(), headers)).status).toBe(201);
    expect(await storedMessages(workspaceId)).toHaveLength(1);
  });

  it("refuses bad input with the error contract and its issues, and stores nothing", async () => {
    const { slug, workspaceId } = await site();
    const res = await visitor().postJson(`/api/v1/contact?site=${slug}`, {
      name: "",
      email: "x",
      message: "a".repeat(5001),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; statusCode: number; issues: { field: string }[] };
    expect(body).toMatchObject({ error: "Bad Request", statusCode: 400 });
    expect(body.issues.map((i) => i.field).sort()).toEqual(["email", "message", "name"]);
    expect(await storedMessages(workspaceId)).toEqual([]);
  });

  it.each([
    ["a line break", "Ada\r\nUrgent: your account is locked, sign in at https://evil.example"],
    ["a control character", "Ada\u0007"],
    ["a bidi override", "Ada \u202egnp.exe"],
  ])("refuses a name with %s (it heads the notification e-mail), and stores nothing", async (_, name) => {
    const { slug, workspaceId } = await site();
    const res = await visitor().postJson(`/api/v1/contact?site=${slug}`, message({ name }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { issues: { field: string; message: string }[] };
    expect(body.issues).toEqual([
      { field: "name", message: "Write your name on one line, without special characters" },
    ]);
    expect(await storedMessages(workspaceId)).toEqual([]);
  });

  it("answers 404 when no site, or an unknown one, is named", async () => {
    const none = await visitor().postJson("/api/v1/contact", message());
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ statusCode: 404 });
    expect((await visitor().postJson("/api/v1/contact?site=no-such-site-here", message())).status).toBe(404);
  });
});

describe("the per-address limit", () => {
  it("does not count retries of one message (same Idempotency-Key) against it", async () => {
    const { slug, workspaceId } = await site();
    const headers = { "x-atrium-site": slug, "idempotency-key": "flaky-network" };
    for (let i = 0; i <= LIMIT; i += 1) {
      expect((await visitor().postJson("/api/v1/contact", message(), headers)).status).toBe(201);
    }
    expect(await storedMessages(workspaceId)).toHaveLength(1);
    // The allowance is intact: LIMIT - 1 more messages go through.
    for (let i = 1; i < LIMIT; i += 1) {
      expect((await visitor().postJson(`/api/v1/contact?site=${slug}`, message({ message: `m${i}` }))).status).toBe(
        201,
      );
    }
  });

  it(`accepts ${LIMIT} messages an hour from one address to one site, then 429 (JSON) or the page's notice (form)`, async () => {
    const { slug, workspaceId } = await site();
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await visitor().postJson(`/api/v1/contact?site=${slug}`, message({ message: `m${i}` }))).status).toBe(
        201,
      );
    }
    const refused = await visitor().postJson(`/api/v1/contact?site=${slug}`, message());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ statusCode: 429 });
    const form = await visitor().post(`/api/v1/contact?site=${slug}`, message());
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`/${slug}/contact?error=rate-limited#contact-form`);
    expect(await (await visitor().get(`/${slug}/contact?error=rate-limited`)).text()).toContain(
      "Please try again in an hour",
    );
    expect(await storedMessages(workspaceId)).toHaveLength(LIMIT);

    // Another site's allowance is its own.
    const other = await site();
    expect((await visitor().postJson(`/api/v1/contact?site=${other.slug}`, message())).status).toBe(201);
  });
});

describe("telling the business", () => {
  it("e-mails the owner and admins, once each, with the message and a link to it in the inbox", async () => {
    const owner = await site();
    const admin = await signUp(server.url, uniqueEmail("admin"));
    await addMember(server.url, owner.client, admin, "admin");
    const editor = await signUp(server.url, uniqueEmail("editor"));
    await addMember(server.url, owner.client, editor, "editor");
    const headers = { "x-atrium-site": owner.slug, "idempotency-key": "notify-once" };
    await visitor().postJson("/api/v1/contact", message({ name: "Notify Me" }), headers);
    await visitor().postJson("/api/v1/contact", message({ name: "Notify Me" }), headers);
    const [stored] = await storedMessages(owner.workspaceId);

    const mails = async () =>
      server.db
        .selectFrom("mail_messages")
        .select(["to_address", "subject", "body"])
        .where("workspace_id", "=", owner.workspaceId)
        .where("subject", "=", "New message from Notify Me")
        .orderBy("to_address")
        .execute();
    await expect.poll(async () => (await mails()).length, { timeout: 10_000 }).toBe(2);
    const sent = await mails();
    expect(sent.map((m) => m.to_address).sort()).toEqual([admin.email, owner.email].sort());
    expect(sent[0]!.body).toContain("Do you bake rye on Saturdays?");
    expect(sent[0]!.body).toContain(`${server.url}/inbox/${stored!.id}`);
    expect(sent[0]!.body).toContain("Notify Me <ada@example.com>");
  });

  it("sends nothing for a robot's message", async () => {
    const owner = await site();
    await visitor().post(`/api/v1/contact?site=${owner.slug}`, message({ website: "x" }));
    const jobs = await server.db
      .selectFrom("jobs")
      .select("id")
      .where("workspace_id", "=", owner.workspaceId)
      .where("kind", "=", "contacts.message-notify")
      .execute();
    expect(jobs).toEqual([]);
  });
});

describe("the inbox", () => {
  it("shows an empty state that says where messages come from", async () => {
    const { client, slug } = await site();
    const page = await (await client.get("/inbox")).text();
    expect(page).toContain("Nothing here yet.");
    expect(page).toContain(`/${slug}/contact`);
  });

  it("lists messages newest first with the unread marked; opening one marks it read", async () => {
    const { client, slug, workspaceId } = await site();
    await visitor().postJson(`/api/v1/contact?site=${slug}`, message({ name: "First Sender" }));
    await visitor().postJson(`/api/v1/contact?site=${slug}`, message({ name: "Second Sender" }));
    const list = await (await client.get("/inbox")).text();
    expect(list).toContain("2 items, 2 unread");
    expect(list.indexOf("Second Sender")).toBeLessThan(list.indexOf("First Sender"));
    const [newest] = await contactMessagesOf(server.db, workspaceId).list({ size: 1, offset: 0 });
    const opened = await client.get(`/inbox/${newest!.id}`);
    expect(opened.status).toBe(200);
    const html = await opened.text();
    expect(html).toContain("Do you bake rye on Saturdays?");
    expect(html).toContain('href="mailto:ada@example.com"');
    expect(await (await client.get("/inbox")).text()).toContain("2 items, 1 unread");

    expect((await client.post(`/inbox/${newest!.id}`, { intent: "mark-unread" })).status).toBe(302);
    expect(await (await client.get("/inbox")).text()).toContain("2 items, 2 unread");
  });

  it("pages a long inbox", async () => {
    const { client, workspaceId } = await site();
    const messages = contactMessagesOf(server.db, workspaceId);
    for (let i = 0; i < 30; i += 1)
      await messages.receive({ name: `Sender ${i}`, email: "a@example.com", message: "hi" });
    const first = await (await client.get("/inbox")).text();
    expect(first).toContain("Page 1 of 2");
    const second = await (await client.get("/inbox?page=2")).text();
    expect(second).toContain("Page 2 of 2");
    expect((second.match(/href="\/inbox\/[0-9A-Z]+"/g) ?? []).length).toBe(5);
  });

  it("lets an editor delete a message (and its contact event), and a viewer only read", async () => {
    const owner = await site();
    await visitor().postJson(`/api/v1/contact?site=${owner.slug}`, message());
    const [stored] = await storedMessages(owner.workspaceId);
    const viewer = await signUp(server.url, uniqueEmail("viewer"));
    await addMember(server.url, owner.client, viewer, "viewer");
    expect((await viewer.client.get(`/inbox/${stored!.id}`)).status).toBe(200);
    expect((await viewer.client.post(`/inbox/${stored!.id}`, { intent: "delete" })).status).toBe(403);
    expect(await storedMessages(owner.workspaceId)).toHaveLength(1);

    const deleted = await owner.client.post(`/inbox/${stored!.id}`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(await storedMessages(owner.workspaceId)).toEqual([]);
    expect(await server.db.selectFrom("contact_events").select("id").where("id", "=", stored!.id).execute()).toEqual(
      [],
    );
  });

  it("answers 404 for another workspace's message, which it can neither read nor delete", async () => {
    const a = await site();
    const b = await site();
    await visitor().postJson(`/api/v1/contact?site=${a.slug}`, message());
    const [stored] = await storedMessages(a.workspaceId);
    const missing = await b.client.get(`/inbox/${stored!.id}`);
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain("Message not found");
    expect(html).toContain('aria-label="Console"');
    expect((await b.client.post(`/inbox/${stored!.id}`, { intent: "delete" })).status).toBe(404);
    expect((await b.client.post(`/inbox/${stored!.id}`, { intent: "mark-unread" })).status).toBe(404);
    expect(await (await b.client.get("/inbox")).text()).toContain("Nothing here yet.");
    expect(await storedMessages(a.workspaceId)).toHaveLength(1);
    // B opening it did not mark it read for A.
    expect((await storedMessages(a.workspaceId))[0]!.read_at).toBeNull();
    await expect(contactMessagesOf(server.db, b.workspaceId).byId(stored!.id)).rejects.toThrow(/not found/);
  });
});
