/**
 * `Idempotency-Key` on every customer-API write (issue 17, ADR 030), through real HTTP on this dialect: a retried
 * ticket, reply, close, profile change or code request with the same key runs once and answers the first answer
 * again; the same key with another body is a 422; another customer's identical key is their own; a key whose first
 * request is still running answers 409; and the API reference says which operations take the header.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { signInCustomer } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CUSTOMER_CODES_PER_EMAIL_PER_HOUR: "50", CUSTOMER_CODES_PER_ADDRESS_PER_HOUR: "1000" });
});
afterAll(() => server.close());

let sites = 0;
async function site() {
  sites += 1;
  const slug = `idem-${process.pid}-${sites}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Kiln ${sites}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { slug, workspaceId: id };
}

const keyed = (slug: string, key: string) => ({ "x-atrium-site": slug, "idempotency-key": key });
const ticketsOf = (workspaceId: string) =>
  server.db.selectFrom("tickets").select(["id", "subject", "status"]).where("workspace_id", "=", workspaceId).execute();

describe("Idempotency-Key on the customer API's writes", () => {
  it("opens one ticket for a retried request, replays its answer, and refuses the key for another body", async () => {
    const { slug, workspaceId } = await site();
    const ada = await signInCustomer(server.url, slug, uniqueEmail("ada"));
    const body = { subject: "Kiln shelf cracked", message: "It arrived in two pieces." };

    const first = await ada.postJson("/api/v1/tickets", body, keyed(slug, "ticket-1"));
    expect(first.status).toBe(201);
    const again = await ada.postJson("/api/v1/tickets", body, keyed(slug, "ticket-1"));
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect(await ticketsOf(workspaceId)).toHaveLength(1);

    const changed = await ada.postJson("/api/v1/tickets", { ...body, subject: "Another" }, keyed(slug, "ticket-1"));
    expect(changed.status).toBe(422);
    expect(await changed.json()).toMatchObject({
      error: "Unprocessable Content",
      statusCode: 422,
      message: expect.stringContaining("different request"),
    });
    expect(await ticketsOf(workspaceId)).toHaveLength(1);

    // Without a key, two posts are two tickets: the key is what says "the same request".
    await ada.postJson("/api/v1/tickets", body, { "x-atrium-site": slug });
    expect(await ticketsOf(workspaceId)).toHaveLength(2);
  });

  it("keeps keys per customer: another customer's identical key and body opens their own ticket", async () => {
    const { slug, workspaceId } = await site();
    const ada = await signInCustomer(server.url, slug, uniqueEmail("ada"));
    const bob = await signInCustomer(server.url, slug, uniqueEmail("bob"));
    const body = { subject: "Where is my glaze?", message: "Order placed last week." };
    const mine = await ada.postJson("/api/v1/tickets", body, keyed(slug, "same-key"));
    const theirs = await bob.postJson("/api/v1/tickets", body, keyed(slug, "same-key"));
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    const [a, b] = [(await mine.json()) as { id: string }, (await theirs.json()) as { id: string }];
    expect(a.id).not.toBe(b.id);
    expect(await ticketsOf(workspaceId)).toHaveLength(2);
  });

  it("adds one reply and closes once for retried requests", async () => {
    const { slug, workspaceId } = await site();
    const ada = await signInCustomer(server.url, slug, uniqueEmail("ada"));
    const opened = (await (
      await ada.postJson("/api/v1/tickets", { subject: "Lid", message: "Too small." }, { "x-atrium-site": slug })
    ).json()) as { id: string };
    const reply = { body: "Photo attached below." };
    for (let i = 0; i < 3; i += 1) {
      const res = await ada.postJson(`/api/v1/tickets/${opened.id}/replies`, reply, keyed(slug, "reply-1"));
      expect(res.status).toBe(201);
    }
    const messages = await server.db
      .selectFrom("ticket_messages")
      .select("body")
      .where("workspace_id", "=", workspaceId)
      .where("ticket_id", "=", opened.id)
      .execute();
    expect(messages.map((m) => m.body)).toEqual(["Too small.", "Photo attached below."]);

    const closed = await ada.postJson(`/api/v1/tickets/${opened.id}/close`, {}, keyed(slug, "close-1"));
    expect(closed.status).toBe(200);
    // A second close without a key is the state's own answer; with the first key, the first answer again.
    const replayed = await ada.postJson(`/api/v1/tickets/${opened.id}/close`, {}, keyed(slug, "close-1"));
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(await replayed.text()).toBe(await closed.text());
  });

  it("replays a profile change and a code request instead of applying or mailing them again", async () => {
    const { slug, workspaceId } = await site();
    const email = uniqueEmail("ada");
    const ada = await signInCustomer(server.url, slug, email);
    const patch = (body: unknown, key: string) =>
      ada.request("/api/v1/profile", {
        method: "PATCH",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", origin: server.url, ...keyed(slug, key) },
      });
    const first = await patch({ name: "Ada Lovelace" }, "profile-1");
    expect(first.status).toBe(200);
    // Changed by the portal in between: a retry of the first request must not put the old value back.
    await patch({ name: "Ada King" }, "profile-2");
    const retried = await patch({ name: "Ada Lovelace" }, "profile-1");
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    const row = await server.db
      .selectFrom("customers")
      .select("name")
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Ada King");

    const guest = new Client(server.url);
    const other = uniqueEmail("code");
    const ask = () => guest.postJson("/api/v1/auth/code", { email: other }, keyed(slug, "code-1"));
    const sent = await ask();
    expect(sent.status).toBe(202);
    const resent = await ask();
    expect(resent.headers.get("idempotent-replayed")).toBe("true");
    expect(await resent.text()).toBe(await sent.text());
    const challenges = await server.db
      .selectFrom("customer_challenges")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", other)
      .execute();
    expect(challenges).toHaveLength(1);
  });

  it("answers 409 while the first request with a key is still running, and nothing is written twice", async () => {
    const { slug, workspaceId } = await site();
    const ada = await signInCustomer(server.url, slug, uniqueEmail("ada"));
    const body = { subject: "Two taps", message: "Sent at once." };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => ada.postJson("/api/v1/tickets", body, keyed(slug, "burst"))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const a of answers.filter((x) => x.status === 409))
      expect(((await a.json()) as { message: string }).message).toContain("still being processed");
    expect(await ticketsOf(workspaceId)).toHaveLength(1);
  });

  it("is documented on each customer write in the API reference, and on no read", async () => {
    const spec = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
    };
    const takes = (path: string, method: string) =>
      (spec.paths[path]?.[method]?.parameters ?? []).some((p) => p.name === "Idempotency-Key");
    for (const [path, method] of [
      ["/api/v1/tickets", "post"],
      ["/api/v1/tickets/{ticketId}/replies", "post"],
      ["/api/v1/tickets/{ticketId}/close", "post"],
      ["/api/v1/profile", "patch"],
      ["/api/v1/auth/code", "post"],
      ["/api/v1/cart/validate", "post"],
      ["/api/v1/orders/{orderId}/cancel", "post"],
      ["/api/v1/orders/{orderId}/resume", "post"],
      ["/api/v1/orders/{orderId}/reorder", "post"],
    ] as const) {
      expect(takes(path, method), `${method} ${path}`).toBe(true);
      expect(Object.keys(spec.paths[path]![method]!.responses), `${method} ${path}`).toEqual(
        expect.arrayContaining(["409", "422"]),
      );
    }
    expect(takes("/api/v1/tickets", "get")).toBe(false);
    expect(takes("/api/v1/profile", "get")).toBe(false);
    // Its answer is a bearer token, which must not be kept to replay.
    expect(takes("/api/v1/auth/token", "post")).toBe(false);
  });
});
