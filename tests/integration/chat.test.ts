/**
 * The assistant through the token API (issue 20, ADR 037): `POST /api/chat/v5` in AI SDK v5's UI message stream
 * protocol, read by the SDK's own `DefaultChatTransport` (tests/helpers/chat.ts). A business with bookings, a shop, a
 * published page and opening hours; an integrator with an API key asks about it, offline (no model).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { setTier } from "~/modules/accounts/users.server";
import type { DomainError } from "~/lib/errors";
import { approve } from "~/modules/oauth/authorization.server";
import { findClient, oauthAppsOf } from "~/modules/oauth/clients.server";
import { ask, bakeryContent, chatBody, chatKey, postChat, userMessage } from "../helpers/chat";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { bookableBusiness, postBooking } from "../helpers/scheduling";
import { startServer, type TestServer } from "../helpers/server";
import { buy, openShop, ownedShop } from "../helpers/shop";

let server: TestServer;

/** Wednesday 10 March 2027, 09:00 in Berlin. */
const NOW = "2027-03-10T08:00:00.000Z";
const at = (iso: string) => setTestClock(() => new Date(iso));
afterEach(() => setTestClock(undefined));

interface Business {
  slug: string;
  workspaceId: string;
  ownerEmail: string;
  key: string;
  pageId: string;
}
let business: Business;
let neighbour: { slug: string; workspaceId: string; key: string };

const ownerEmailOf = async (workspaceId: string) =>
  (
    await server.db
      .selectFrom("workspaces")
      .innerJoin("users", "users.id", "workspaces.owner_user_id")
      .select("users.email")
      .where("workspaces.id", "=", workspaceId)
      .executeTakeFirstOrThrow()
  ).email;

beforeAll(async () => {
  server = await startServer({ API_AUTH_FAILURES_PER_MINUTE: "10000" });
  at(NOW);
  // A studio in Berlin that takes bookings 09:00–17:00, sells bread, and says what it bakes.
  const studio = await bookableBusiness(server, { service: { name: "Cake consultation", noticeMinutes: 0 } });
  const ownerEmail = await ownerEmailOf(studio.workspaceId);
  await setTier(server.db, ownerEmail, "pro");
  const shop = await openShop(server.db, studio.workspaceId);
  const pageId = await bakeryContent(server.db, studio.workspaceId);
  await buy(new Client(server.url), studio.slug, shop, { email: "jane.doe@example.com", name: "Jane Doe" }, shop.large);
  await buy(
    new Client(server.url),
    studio.slug,
    shop,
    { email: "jane.doe@example.com", name: "Jane Doe" },
    shop.small,
    2,
  );
  const booked = [
    { name: "Ada Lovelace", start: "2027-03-10T13:00:00Z" },
    { name: "Grace Hopper", start: "2027-03-11T09:00:00Z" },
  ];
  for (const b of booked) {
    const res = await postBooking(new Client(server.url), studio.slug, { service: studio.serviceSlug, ...b });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  business = {
    slug: studio.slug,
    workspaceId: studio.workspaceId,
    ownerEmail,
    key: await chatKey(server.db, ownerEmail),
    pageId,
  };

  // Another business, with a customer of its own.
  const other = await ownedShop(server, `chat-neighbour-${process.pid}`, "Neighbour Bakery");
  await buy(new Client(server.url), other.slug, other.shop, { email: "eve.other@example.com", name: "Eve Other" });
  neighbour = { slug: other.slug, workspaceId: other.workspaceId, key: await chatKey(server.db, other.ownerEmail) };
  setTestClock(undefined);
});
afterAll(() => server.close());

const CHUNK_TYPES = new Set([
  "start",
  "start-step",
  "text-start",
  "text-delta",
  "text-end",
  "source-url",
  "tool-input-available",
  "tool-output-available",
  "tool-output-error",
  "finish-step",
  "finish",
  "error",
]);

const conversations = () => server.db.selectFrom("chat_conversations").selectAll().execute();

describe("POST /api/chat/v5: the UI message stream", () => {
  it("answers text/event-stream frames of v5 chunk types, ending with [DONE], under the key's rate limit", async () => {
    at(NOW);
    const res = await postChat(
      server.url,
      business.key,
      chatBody("What are your opening hours?", { workspace: business.slug }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Number(res.headers.get("x-ratelimit-limit"))).toBe(1000);
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(1000);
    expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    const frames = (await res.text()).split("\n\n").filter(Boolean);
    expect(frames.at(-1)).toBe("data: [DONE]");
    const chunks = frames.slice(0, -1).map((f) => {
      expect(f.startsWith("data: ")).toBe(true);
      return JSON.parse(f.slice("data: ".length)) as { type: string };
    });
    for (const chunk of chunks) expect(CHUNK_TYPES.has(chunk.type), chunk.type).toBe(true);
    expect(chunks[0]!.type).toBe("start");
    expect(chunks.at(-1)!.type).toBe("finish");
  });

  it("answers the opening hours from the business profile, citing the contact page", async () => {
    const answer = await ask(server.url, business.key, "When are you open on Saturday?", { workspace: business.slug });
    expect(answer.text).toContain("Saturday: 9:00–14:00");
    expect(answer.sources).toEqual([{ url: `${server.url}/${business.slug}/contact`, title: expect.any(String) }]);
    expect(answer.tools.map((t) => t.name)).toEqual(["search_content"]);
  });

  it("lists today's bookings in the business's zone, and tomorrow's as a follow-up with the history", async () => {
    at(NOW);
    const chatId = `bookings-${process.pid}`;
    const first = await ask(server.url, business.key, "What are today's bookings?", {
      workspace: business.slug,
      chatId,
    });
    expect(first.tools).toMatchObject([{ name: "bookings_in_period", state: "output-available" }]);
    expect(first.text).toMatch(/^1 booking today \(Wed 10 Mar\)/);
    expect(first.text).toContain("14:00–15:00 Cake consultation with Ada Lovelace");
    expect(first.text).not.toContain("Grace Hopper");

    // The client sends back what it holds; the server answers from what it stored.
    const second = await ask(server.url, business.key, "and tomorrow?", {
      workspace: business.slug,
      chatId,
      before: [userMessage("What are today's bookings?"), first.message],
    });
    expect(second.text).toMatch(/^1 booking tomorrow \(Thu 11 Mar\)/);
    expect(second.text).toContain("Grace Hopper");
  });

  it("finds a customer's last order with what they bought", async () => {
    const answer = await ask(server.url, business.key, "What was Jane Doe's last order?", { workspace: business.slug });
    expect(answer.tools).toMatchObject([{ name: "find_orders", input: { customer: "Jane Doe", limit: 1 } }]);
    expect(answer.text).toMatch(
      /^The last order of “Jane Doe”:\n- Order #\d+ — Jane Doe — €12\.95 — Awaiting payment — 10 Mar 2027\n/,
    );
    expect(answer.text).toContain("2 × Seeded rye (Small)");
    expect(answer.text).not.toContain("Large");
    const output = answer.tools[0]!.output as { orders: { url: string }[] };
    expect(output.orders[0]!.url).toMatch(new RegExp(`^${server.url}/shop/orders/[0-9A-Z]{26}$`));
  });

  it("finds a page and cites it, quoting the sentence that answers", async () => {
    const answer = await ask(server.url, business.key, "Is the rye bread wheat free?", { workspace: business.slug });
    expect(answer.text).toContain("Our seeded rye is baked with rye flour only");
    expect(answer.text).toContain("(from “Allergies and ingredients”)");
    // The studio's first page is its home page.
    expect(answer.sources).toEqual([{ url: `${server.url}/${business.slug}`, title: "Allergies and ingredients" }]);
    const pageOut = await fetch(answer.sources[0]!.url);
    expect(pageOut.status).toBe(200);
  });

  it("runs a tool for each ask of a multi-step question", async () => {
    at(NOW);
    const answer = await ask(server.url, business.key, "Show me today's bookings and what is low on stock", {
      workspace: business.slug,
    });
    expect(answer.tools.map((t) => t.name)).toEqual(["bookings_in_period", "low_stock"]);
    expect(answer.text).toContain("Ada Lovelace");
    expect(answer.text).toMatch(/Seeded rye \(Large\): sold out/);
  });

  it("says plainly when it cannot answer, and refuses to act", async () => {
    const unknown = await ask(server.url, business.key, "Who won the football world cup in 1966?", {
      workspace: business.slug,
    });
    expect(unknown.text).toMatch(/^I could not find that in .*pages, products or services\.$/);
    expect(unknown.sources).toEqual([]);
    const act = await ask(server.url, business.key, "Please refund Jane Doe's last order", {
      workspace: business.slug,
    });
    expect(act.text).toMatch(/^I can't refund anything/);
    expect(act.tools).toEqual([]);
  });

  it("drafts a page without publishing it", async () => {
    const answer = await ask(server.url, business.key, "Draft a page called “Easter opening hours”", {
      workspace: business.slug,
    });
    expect(answer.tools).toMatchObject([{ name: "draft_page", input: { title: "Easter opening hours" } }]);
    const page = await server.db
      .selectFrom("site_pages")
      .select(["published", "slug"])
      .where("workspace_id", "=", business.workspaceId)
      .where("slug", "=", "easter-opening-hours")
      .executeTakeFirstOrThrow();
    expect(page.published).toBeNull();
    expect((await fetch(`${server.url}/${business.slug}/easter-opening-hours`)).status).toBe(404);
  });
});

describe("stored conversations", () => {
  it("keeps the server's history, answers GET as UI messages and DELETE removes it, for its owner only", async () => {
    const chatId = `stored-${process.pid}`;
    const question = userMessage("What are your opening hours?");
    const first = await ask(server.url, business.key, "What are your opening hours?", {
      workspace: business.slug,
      chatId,
      questionId: question.id,
    });
    // A regenerated answer replaces the first one: one question, one answer.
    const again = await postChat(server.url, business.key, {
      id: chatId,
      messages: [question],
      trigger: "regenerate-message",
      messageId: first.message.id,
      workspace: business.slug,
    });
    expect(again.status).toBe(200);
    await again.text();

    const got = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${business.slug}`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(got.status).toBe(200);
    const body = (await got.json()) as {
      id: string;
      title: string;
      messages: { role: string; parts: { type: string }[] }[];
    };
    expect(body.id).toBe(chatId);
    expect(body.title).toBe("What are your opening hours?");
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(body.messages[1]!.parts.map((p) => p.type)).toContain("source-url");

    // Another user asking for the same id finds nothing of it.
    const stranger = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${neighbour.slug}`, {
      headers: { authorization: `Bearer ${neighbour.key}` },
    });
    expect(stranger.status).toBe(404);

    const removed = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${business.slug}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(removed.status).toBe(204);
    const gone = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${business.slug}`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: "Not Found", message: "No such conversation", statusCode: 404 });
  });

  it("answers 204 where AI SDK would resume a stream: none is resumable", async () => {
    const res = await fetch(`${server.url}/api/chat/v5/anything/stream`, {
      headers: { authorization: `Bearer ${business.key}` },
    });
    expect(res.status).toBe(204);
  });
});

describe("refused before the stream starts, with the error contract", () => {
  const count = async () => (await conversations()).length;

  it("without a valid key: 401", async () => {
    for (const token of [null, "atr_live_nonsense"]) {
      const res = await postChat(server.url, token, chatBody("hi", { workspace: business.slug }));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: "Unauthorized",
        message: "Invalid or missing API key",
        statusCode: 401,
      });
    }
  });

  it("an OAuth access token without read_data: 403 insufficient_scope; with it, an answer", async () => {
    const apps = oauthAppsOf(server.db, (await userOf(business.ownerEmail)).id);
    const owner = await userOf(business.ownerEmail);
    const actor = { userId: owner.id, ip: null };
    const { app, secret } = await apps.register(actor, {
      name: `Chat app ${process.pid}`,
      clientType: "confidential",
      redirectUris: ["https://app.example/cb"],
    });
    const tokenWith = async (scopes: string[]) => {
      const client = (await findClient(server.db, app.clientId))!;
      const location = await approve(
        server.db,
        { client, redirectUri: "https://app.example/cb", scopes, state: null, codeChallenge: null },
        owner.id,
        server.url,
      );
      const code = new URL(location).searchParams.get("code")!;
      const res = await fetch(`${server.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          client_id: app.clientId,
          client_secret: secret!,
          redirect_uri: "https://app.example/cb",
        }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const profileOnly = await tokenWith(["read_profile"]);
    const refused = await postChat(server.url, profileOnly, chatBody("hi", { workspace: business.slug }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(refused.headers.get("www-authenticate")).toContain('scope="read_data"');
    expect(await refused.json()).toMatchObject({ error: "Forbidden", statusCode: 403 });

    const data = await tokenWith(["read_profile", "read_data"]);
    const answer = await ask(server.url, data, "What are your opening hours?", { workspace: business.slug });
    expect(answer.sources.length).toBe(1);
    // An OAuth token only reads: drafting is an API key's act.
    const draft = await postChat(
      server.url,
      data,
      chatBody("Draft a page called “Summer menu”", { workspace: business.slug }),
    );
    expect(draft.status).toBe(403);
  });

  it("another workspace, an unknown one, or one the key is not restricted to: 403; none named among several: 400", async () => {
    const before = await count();
    const forbidden = { error: "Forbidden", message: "Insufficient permissions", statusCode: 403 };
    for (const workspace of [neighbour.slug, neighbour.workspaceId, "no-such-workspace"]) {
      const res = await postChat(server.url, business.key, chatBody("hi", { workspace }));
      expect(res.status, workspace).toBe(403);
      expect(await res.json()).toEqual(forbidden);
    }
    const restricted = await chatKey(server.db, business.ownerEmail, business.workspaceId);
    const res = await postChat(server.url, restricted, chatBody("hi"));
    expect(res.status).toBe(200);
    await res.text();

    // An operator with two workspaces says which.
    const { client, email } = await signUp(server.url);
    await createWorkspace(client, "First", `chat-first-${process.pid}`);
    await createWorkspace(client, "Second", `chat-second-${process.pid}`);
    const key = await chatKey(server.db, email);
    const unnamed = await postChat(server.url, key, chatBody("hi"));
    expect(unnamed.status).toBe(400);
    const problem = (await unnamed.json()) as { issues: { field: string; message: string }[] };
    expect(problem.issues).toEqual([
      { field: "workspace", message: `Say which workspace: chat-first-${process.pid}, chat-second-${process.pid}` },
    ]);
    expect(await count()).toBe(before + 1);
  });

  it("what the plan does not include: 403 (a Free account's sales report); an unknown tool: 400", async () => {
    const { client, email } = await signUp(server.url);
    const slug = `chat-free-${process.pid}`;
    await createWorkspace(client, "Free Bakery", slug);
    const key = await chatKey(server.db, email);
    const before = await count();
    const sales = await postChat(server.url, key, chatBody("What were our sales last week?", { workspace: slug }));
    expect(sales.status).toBe(403);
    expect(await sales.json()).toEqual({ error: "Forbidden", message: "Insufficient permissions", statusCode: 403 });
    const named = await postChat(server.url, key, chatBody("hi", { workspace: slug, tools: ["sales_summary"] }));
    expect(named.status).toBe(403);
    const unknown = await postChat(server.url, key, chatBody("hi", { workspace: slug, tools: ["rm_rf"] }));
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { issues: unknown[] }).issues).toEqual([
      { field: "tools.0", message: "There is no tool rm_rf" },
    ]);
    // What Free does include still answers.
    const stock = await ask(server.url, key, "What is low on stock?", { workspace: slug });
    expect(stock.text).toBe("Nothing tracked is at or below 5 in stock.");
    expect(await count()).toBe(before + 1);
  });

  it("a body not in the protocol's shape, an oversized message, a non-text part: 400 naming the field, nothing stored", async () => {
    const before = await count();
    const cases: [unknown, string][] = [
      [{ messages: [userMessage("hi")] }, "id"],
      [{ id: "x" }, "messages"],
      [{ id: "x", messages: [] }, "messages"],
      [{ id: "../etc", messages: [userMessage("hi")] }, "id"],
      [
        { id: "x", messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }] },
        "messages.0.role",
      ],
      [{ id: "x", messages: [userMessage("x".repeat(4001))] }, "messages.0.parts"],
      [
        {
          id: "x",
          messages: [{ id: "a", role: "user", parts: [{ type: "file", url: "https://x", mediaType: "image/png" }] }],
        },
        "messages.0.parts.0.type",
      ],
      [{ id: "x", messages: [userMessage("hi")], trigger: "delete-everything" }, "trigger"],
    ];
    for (const [body, field] of cases) {
      const res = await postChat(server.url, business.key, { workspace: business.slug, ...(body as object) });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const problem = (await res.json()) as { error: string; statusCode: number; issues: { field: string }[] };
      expect(problem).toMatchObject({ error: "Bad Request", statusCode: 400 });
      expect(problem.issues.map((i) => i.field)).toContain(field);
    }
    const notJson = await postChat(server.url, business.key, "{not json");
    expect(notJson.status).toBe(400);
    const plain = await postChat(server.url, business.key, "hi", { "content-type": "text/plain" });
    expect(plain.status).toBe(415);
    expect(await count()).toBe(before);
  });

  it("never reaches another workspace's records: its customer is not found", async () => {
    const answer = await ask(server.url, business.key, "What was Eve Other's last order?", {
      workspace: business.slug,
    });
    expect(answer.text).toBe("I found no orders for “Eve Other”.");
    expect(JSON.stringify(answer.message)).not.toContain("eve.other@example.com");
    const theirs = await ask(server.url, neighbour.key, "What was Eve Other's last order?", {
      workspace: neighbour.slug,
    });
    expect(theirs.text).toContain("Eve Other");
    expect(JSON.stringify(theirs.message)).not.toContain("jane.doe@example.com");
  });
});

describe("the token API's other promises", () => {
  it("streams uncompressed even when the client accepts gzip (each piece must arrive as written)", async () => {
    const res = await postChat(
      server.url,
      business.key,
      chatBody("What are your opening hours?", { workspace: business.slug }),
      {
        "accept-encoding": "gzip, br",
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    await res.text();
  });

  it("answers a browser's preflight from any origin (no cookie is read; the bearer is the app's own)", async () => {
    const res = await fetch(`${server.url}/api/chat/v5`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const answer = await postChat(server.url, business.key, chatBody("hi", { workspace: business.slug }), {
      origin: "https://app.example",
    });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    await answer.text();
  });

  it("counts a Free account's messages per day and refuses the 51st with 429", async () => {
    const { email } = await signUp(server.url);
    const user = await userOf(email);
    const throttle = server.atrium.runtime.services.chatThrottle;
    for (let i = 0; i < 50; i++) await throttle.takeOperatorMessage(user.id, "free");
    // The server's build has its own copy of the error class: its shape is what is checked.
    const refused = (await throttle.takeOperatorMessage(user.id, "free").catch((e: unknown) => e)) as DomainError;
    expect(refused.kind).toBe("rate-limited");
    expect(refused.detail.retryAfter).toBeGreaterThan(86_000);
    // Pro's allowance is its own.
    await throttle.takeOperatorMessage(user.id, "pro");
  });
});

async function userOf(email: string) {
  return server.db.selectFrom("users").select(["id", "tier"]).where("email", "=", email).executeTakeFirstOrThrow();
}
