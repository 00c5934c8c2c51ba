/**
 * DESIGN rule 2 for the assistant's repositories (ADR 037): conversations (per workspace and owner), the inbox's list
 * of site conversations and the assistant's settings. Built for A, each finds none of B's rows and changes none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UIMessage } from "ai";
import { conversationsOf, inboxConversationsOf } from "~/modules/chat/conversations.server";
import { assistantSettingsOf } from "~/modules/chat/settings.server";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
const question = (text: string, id = "q1"): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const notFound = { kind: "not-found" };

beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

describe("conversationsOf, built for workspace A and one owner", () => {
  it("opens nothing of B's, nor of another owner in A, under the same client id", async () => {
    const owner = { kind: "user" as const, userId: f.b.user.id };
    await conversationsOf(f.db, f.b.workspace.id, "integrator", owner).ask("same-id", question("B's question"));
    const before = await f.rowsOf("chat_conversations", "workspace_id", f.b.workspace.id);

    const a = conversationsOf(f.db, f.a.workspace.id, "integrator", { kind: "user", userId: f.a.user.id });
    await expect(a.get("same-id")).rejects.toMatchObject(notFound);
    expect(await a.remove("same-id")).toBe(false);
    expect(await a.claimHandoff("same-id", "handing-over:x")).toBe(false);
    // The same user in A with the same id starts their own conversation; B's is untouched.
    const { history } = await a.ask("same-id", question("A's question"));
    expect(history.map((m) => m.parts)).toEqual([[{ type: "text", text: "A's question" }]]);
    expect(await f.rowsOf("chat_conversations", "workspace_id", f.b.workspace.id)).toEqual(before);

    // B's user asking in A (were they a member) would not see B's conversation either: the owner is per workspace.
    const bInA = conversationsOf(f.db, f.a.workspace.id, "integrator", owner);
    await expect(bInA.get("same-id")).rejects.toMatchObject(notFound);
  });
});

describe("inboxConversationsOf, built for workspace A", () => {
  it("lists and opens none of B's site conversations", async () => {
    const visitor = { kind: "visitor" as const, visitorHash: "hash-of-a-visitor" };
    const b = conversationsOf(f.db, f.b.workspace.id, "site", visitor);
    const started = await b.start();
    await b.ask(started.clientId, question("Are you open on Sunday?"));
    const [row] = (await f.rowsOf("chat_conversations", "client_id", started.clientId)) as { id: string }[];

    const a = inboxConversationsOf(f.db, f.a.workspace.id);
    expect(await a.list({ size: 50, offset: 0 })).toEqual([]);
    expect(await a.count()).toBe(0);
    await expect(a.get(row!.id)).rejects.toMatchObject(notFound);
    // B's own inbox has it: the scope is B's, not empty.
    expect(await inboxConversationsOf(f.db, f.b.workspace.id).list({ size: 50, offset: 0 })).toMatchObject([
      { title: "Are you open on Sunday?", messageCount: 1, customer: null },
    ]);
  });
});

describe("assistantSettingsOf, built for workspace A", () => {
  it("reads and writes its own workspace's settings only", async () => {
    await assistantSettingsOf(f.db, f.b.workspace.id).save(f.b.user.id, { enabled: true, greeting: "B says hi" });
    const before = await f.rowsOf("chat_settings", "workspace_id", f.b.workspace.id);
    expect(await assistantSettingsOf(f.db, f.a.workspace.id).get()).toMatchObject({ enabled: false });
    await assistantSettingsOf(f.db, f.a.workspace.id).save(f.a.user.id, { enabled: true, greeting: "A says hi" });
    expect(await f.rowsOf("chat_settings", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect(await assistantSettingsOf(f.db, f.b.workspace.id).get()).toEqual({ enabled: true, greeting: "B says hi" });
  });
});
