/**
 * Idempotency keys belong to a workspace: two workspaces that use the same key each get their own record and
 * each deduplicate on their own (mail messages and contact events, whose keys SOP steps and, later, forms,
 * orders and bookings pass). Over a real database, and for a SOP run over real HTTP.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactEventsOf } from "~/modules/contacts/contact-events.server";
import { createMailer } from "~/modules/mail/mail.server";
import { createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop, trigger, waitForRun } from "../helpers/sops";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ JOBS_POLL_MS: "50", JOBS_RETRY_BASE_MS: "20", OUTBOUND_ALLOW_PRIVATE: "true" });
});
afterAll(() => server.close());

let counter = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

async function workspace() {
  const { client } = await signUp(server.url);
  const wsSlug = slug("ws");
  await createWorkspace(client, `Workspace ${wsSlug}`, wsSlug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", wsSlug)
    .executeTakeFirstOrThrow();
  return { client, id };
}

const outbox = () =>
  createMailer(
    server.db,
    { MAIL_FROM: "Atrium <test@atrium.test>", OUTBOUND_TIMEOUT_MS: 1000, production: false },
    pino({ level: "silent" }),
  );

const event = (idempotencyKey: string) => ({
  email: "ada@example.com",
  type: "order.created",
  note: "",
  source: "test",
  idempotencyKey,
});

describe("contact events", () => {
  it("lets two workspaces use one key, each deduplicating its own events", async () => {
    const [a, b] = [await workspace(), await workspace()];
    const key = slug("order");

    const first = await contactEventsOf(server.db, a.id).record(event(key));
    const other = await contactEventsOf(server.db, b.id).record(event(key));
    expect(first.duplicate).toBe(false);
    expect(other).toEqual({ id: expect.any(String), duplicate: false });
    expect(other.id).not.toBe(first.id);

    expect(await contactEventsOf(server.db, a.id).record(event(key))).toEqual({ id: first.id, duplicate: true });
    expect(await contactEventsOf(server.db, b.id).record(event(key))).toEqual({ id: other.id, duplicate: true });
    expect(await contactEventsOf(server.db, a.id).list("ada@example.com")).toHaveLength(1);
    expect(await contactEventsOf(server.db, b.id).list("ada@example.com")).toHaveLength(1);
  });

  it("answers two racing records of one key in one workspace with the winner's event", async () => {
    const { id } = await workspace();
    const key = slug("race");
    const results = await Promise.all([1, 2, 3].map(() => contactEventsOf(server.db, id).record(event(key))));
    const winners = results.filter((r) => !r.duplicate);
    expect(winners).toHaveLength(1);
    expect(new Set(results.map((r) => r.id))).toEqual(new Set([winners[0]!.id]));
  });
});

describe("mail messages", () => {
  const mail = (workspaceId: string | null, idempotencyKey: string) => ({
    workspaceId,
    to: "bo@example.com",
    subject: "Hello",
    text: "Hi",
    idempotencyKey,
  });

  it("lets two workspaces use one key, each deduplicating its own messages", async () => {
    const [a, b] = [await workspace(), await workspace()];
    const key = slug("mail");
    const mailer = outbox();

    const first = await mailer.send(mail(a.id, key));
    const other = await mailer.send(mail(b.id, key));
    expect(first.duplicate).toBe(false);
    expect(other.duplicate).toBe(false);
    expect(other.id).not.toBe(first.id);

    expect(await mailer.send(mail(a.id, key))).toMatchObject({ id: first.id, duplicate: true });
    expect(await mailer.send(mail(b.id, key))).toMatchObject({ id: other.id, duplicate: true });
    const stored = await server.db
      .selectFrom("mail_messages")
      .select(["id", "workspace_id"])
      .where("idempotency_key", "=", key)
      .orderBy("id")
      .execute();
    expect(stored).toEqual(
      [
        { id: first.id, workspace_id: a.id },
        { id: other.id, workspace_id: b.id },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it("still deduplicates a key used outside any workspace, racing or not", async () => {
    const key = slug("account-mail");
    const mailer = outbox();
    const results = await Promise.all([1, 2, 3].map(() => mailer.send(mail(null, key))));
    const winners = results.filter((r) => !r.duplicate);
    expect(winners).toHaveLength(1);
    expect(new Set(results.map((r) => r.id))).toEqual(new Set([winners[0]!.id]));
    expect(await mailer.send(mail(null, key))).toMatchObject({ id: winners[0]!.id, duplicate: true });
  });
});

describe("a SOP run whose step keys another workspace already used", () => {
  it("records its own contact event and e-mail and leaves the other workspace's alone", async () => {
    // The run's first step waits here, so the test can learn the run id (and so its step keys) before the
    // steps that use them run.
    const held: ServerResponse[] = [];
    const gate = createServer((_req, res) => void held.push(res));
    await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
    const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
    try {
      const a = await workspace();
      const b = await workspace();
      const sopId = await createSop(a.client, {
        name: "Order",
        slug: slug("order-sop"),
        steps: [
          { type: "http_request", method: "POST", url: `${gateUrl}/hold`, headers: "", body: "" },
          { type: "create_contact_event", email: "{{input.email}}", event: "order.created", note: "" },
          { type: "send_email", to: "{{input.email}}", subject: "Thanks", body: "Your order" },
        ],
      });
      const secret = await consoleTrigger(a.client, sopId);
      const response = await trigger(server.url, sopId, secret, { email: "cy@example.com" });
      expect(response.status).toBe(202);
      const { runId, statusUrl } = (await response.json()) as { runId: string; statusUrl: string };

      // Workspace B already holds records under the keys the run's steps 1 and 2 will use.
      const theirs = await contactEventsOf(server.db, b.id).record(event(`${runId}.1`));
      const theirMail = await outbox().send({
        workspaceId: b.id,
        to: "dee@example.com",
        subject: "B's own",
        text: "B",
        idempotencyKey: `${runId}.2`,
      });
      await expect.poll(() => held.length).toBe(1);
      held[0]!.writeHead(200, { "content-type": "application/json" }).end("{}");

      const done = await waitForRun(a.client, statusUrl);
      expect(done.status, JSON.stringify(done)).toBe("succeeded");
      const ours = await contactEventsOf(server.db, a.id).list("cy@example.com");
      expect(ours.map((e) => e.idempotency_key)).toEqual([`${runId}.1`]);
      expect(done.steps[1]!.output).toMatchObject({ eventId: ours[0]!.id });
      expect(ours[0]!.id).not.toBe(theirs.id);
      const mails = await server.db
        .selectFrom("mail_messages")
        .select(["id", "workspace_id", "to_address"])
        .where("idempotency_key", "=", `${runId}.2`)
        .execute();
      expect(mails).toHaveLength(2);
      expect(mails.find((m) => m.workspace_id === b.id)).toEqual({
        id: theirMail.id,
        workspace_id: b.id,
        to_address: "dee@example.com",
      });
      expect(mails.find((m) => m.workspace_id === a.id)?.to_address).toBe("cy@example.com");
    } finally {
      for (const res of held) if (!res.writableEnded) res.end();
      gate.closeAllConnections();
      await new Promise<void>((resolve) => gate.close(() => resolve()));
    }
  });
});
