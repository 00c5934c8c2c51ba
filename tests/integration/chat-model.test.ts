/**
 * The assistant's model engine (issue 20, ADR 037): with `AI_BASE_URL` set, `POST /api/chat/v5` answers through the
 * AI SDK (`streamText` over `@ai-sdk/openai-compatible`), the same tools and retrieval as the offline engine. Two
 * models, neither leaving the machine: the local fake OpenAI-compatible server (tests/fakes/openai-compatible.ts, a
 * scripted model on the wire) and the SDK's own `MockLanguageModelV2`, swapped into the server's chat service.
 * Every answer is read by the SDK's `DefaultChatTransport` (tests/helpers/chat.ts).
 */
import { simulateReadableStream, type UIMessage, type UIMessageChunk } from "ai";
import { MockLanguageModelV2 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "~/modules/accounts/users.server";
import { startFakeOpenAICompatible, type FakeOpenAICompatible } from "../fakes/openai-compatible";
import { ask, bakeryContent, chatKey, userMessage } from "../helpers/chat";
import { createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { ownedShop } from "../helpers/shop";

const AI_API_KEY = "sk-atrium-fake-test";
/** What a client is told when an answer fails part-way (turn.server.ts): nothing of the provider's own words. */
const STREAM_ERROR = "The assistant could not finish this answer. Please try again.";

let fake: FakeOpenAICompatible;
let server: TestServer;
let business: { slug: string; workspaceId: string; name: string; key: string };

beforeAll(async () => {
  fake = await startFakeOpenAICompatible({ apiKey: AI_API_KEY });
  server = await startServer({
    API_AUTH_FAILURES_PER_MINUTE: "10000",
    AI_BASE_URL: fake.url,
    AI_API_KEY,
    AI_MODEL: fake.model,
  });
  // A bakery with a shop (Seeded rye: Small 5 in stock, Large 1), opening hours and a published page; a Pro owner.
  const name = "Model Bakery";
  const owned = await ownedShop(server, `chat-model-${process.pid}`, name);
  await setTier(server.db, owned.ownerEmail, "pro");
  await bakeryContent(server.db, owned.workspaceId);
  business = {
    slug: owned.slug,
    workspaceId: owned.workspaceId,
    name,
    key: await chatKey(server.db, owned.ownerEmail),
  };
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fake hands back whatever the SDK sent
type Body = any;

/** The chat completions requests the fake received since `from` (an index into `fake.requests`). */
const completionsSince = (from: number): Body[] =>
  fake.requests
    .slice(from)
    .filter((r) => r.path === "/v1/chat/completions")
    .map((r) => r.body as Body);

const toolNamesOf = (body: Body): string[] =>
  ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

const storedConversation = async (chatId: string, key = business.key, slug = business.slug) => {
  const res = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${slug}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; messages: UIMessage[] };
};

const chatFailures = () => server.logs.filter((line) => line.msg === "chat answer failed");

describe("through a local OpenAI-compatible server (AI_BASE_URL)", () => {
  it("offers the caller's tools, searches the content, cites the contact page and stores the conversation", async () => {
    const from = fake.requests.length;
    const chatId = `model-hours-${process.pid}`;
    const question = userMessage("What are your opening hours?");
    const answer = await ask(server.url, business.key, "What are your opening hours?", {
      workspace: business.slug,
      chatId,
      questionId: question.id,
    });

    const [first, second, ...more] = completionsSince(from);
    expect(more).toEqual([]);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${AI_API_KEY}`);
    expect(first.model).toBe(fake.model);
    expect(first.stream).toBe(true);
    // A Pro owner's key: every operator tool, the paid ones too.
    expect(toolNamesOf(first)).toEqual(
      expect.arrayContaining(["search_content", "low_stock", "find_orders", "sales_summary", "draft_page"]),
    );
    const system = (first.messages as { role: string; content: string }[]).find((m) => m.role === "system");
    expect(system?.content).toContain(business.name);
    expect(first.messages.at(-1)).toMatchObject({ role: "user" });
    // The second step carries the tool's result back to the model.
    expect(second.messages.at(-1)).toMatchObject({ role: "tool" });

    expect(answer.tools).toMatchObject([
      { name: "search_content", state: "output-available", input: { query: "What are your opening hours?" } },
    ]);
    const output = answer.tools[0]!.output as { results: { url: string }[] };
    expect(output.results.map((r) => r.url)).toContain(`${server.url}/${business.slug}/contact`);
    expect(answer.sources).toEqual([{ url: `${server.url}/${business.slug}/contact`, title: expect.any(String) }]);
    expect(answer.text).toMatch(/^Based on search_content: /);
    expect(answer.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    expect(answer.chunks.some((c) => c.type === "error")).toBe(false);

    const stored = await storedConversation(chatId);
    expect(stored.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(stored.messages[0]!.id).toBe(question.id);
    expect(stored.messages[1]!.id).toBe(answer.message.id);
    expect(stored.messages[1]!.parts.map((p) => p.type)).toEqual(
      expect.arrayContaining(["tool-search_content", "source-url", "text"]),
    );

    // A follow-up in the same conversation: the model is given the earlier turn, from what the server stored.
    const followUpFrom = fake.requests.length;
    const followUp = await ask(server.url, business.key, "And on Sunday?", {
      workspace: business.slug,
      chatId,
      before: [question, answer.message],
    });
    expect(followUp.text).toMatch(/^Based on search_content: /);
    const [again] = completionsSince(followUpFrom);
    const messages = again.messages as { role: string; content: unknown; tool_calls?: unknown[] }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
    expect(messages[1]!.content).toBe("What are your opening hours?");
    expect(messages[2]!.tool_calls).toMatchObject([{ type: "function", function: { name: "search_content" } }]);
    expect(JSON.stringify(messages[4]!.content)).toContain("Based on search_content: ");
    expect(messages[5]!.content).toBe("And on Sunday?");
    expect((await storedConversation(chatId)).messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("offers a Free account only what its plan includes", async () => {
    const { client, email } = await signUp(server.url);
    const slug = `chat-model-free-${process.pid}`;
    await createWorkspace(client, "Free Model Bakery", slug);
    const key = await chatKey(server.db, email);
    const from = fake.requests.length;
    const answer = await ask(server.url, key, "What are your opening hours?", { workspace: slug });
    expect(answer.tools.map((t) => t.name)).toEqual(["search_content"]);
    const [first] = completionsSince(from);
    const names = toolNamesOf(first);
    expect(names).toEqual(expect.arrayContaining(["search_content", "low_stock", "find_orders"]));
    expect(names).not.toContain("sales_summary");
    expect(names).not.toContain("draft_page");
    expect((first.messages as { role: string; content: string }[])[0]).toMatchObject({
      role: "system",
      content: expect.stringContaining("Free Model Bakery"),
    });
  });

  it("a stream cut off midway ends with a generic error chunk, keeps the question and logs the real error once", async () => {
    const chatId = `model-midstream-${process.pid}`;
    const logged = chatFailures().length;
    const answer = await ask(server.url, business.key, "Tell me a long story fail:midstream please", {
      workspace: business.slug,
      chatId,
    });
    const last = answer.chunks.at(-1)!;
    expect(last).toEqual({ type: "error", errorText: STREAM_ERROR });
    expect(answer.chunks.filter((c) => c.type === "error")).toHaveLength(1);
    // What the fake sent before it dropped reached the client, and nothing of the provider's words.
    expect(answer.text).toMatch(/^You said: /);
    expect(JSON.stringify(answer.chunks)).not.toMatch(/terminated|socket|ECONNRESET|fetch failed/i);

    const stored = await storedConversation(chatId);
    expect(stored.messages.map((m) => m.role)).toEqual(["user"]);
    expect(JSON.stringify(stored.messages)).not.toContain("You said");

    const failures = chatFailures().slice(logged);
    expect(failures).toHaveLength(1);
    // The log has what happened (the connection dropped), not what the client was told.
    expect((failures[0]!.err as { message: string }).message).toMatch(/terminated|other side closed/);
  });

  it("a provider failing every try (500, retried twice) answers an error chunk, not a 500 and not a hang", async () => {
    const chatId = `model-500-${process.pid}`;
    const logged = chatFailures().length;
    const from = fake.requests.length;
    fake.failNext(3, 500);
    const answer = await ask(server.url, business.key, "What are your opening hours?", {
      workspace: business.slug,
      chatId,
    });
    expect(completionsSince(from)).toHaveLength(3);
    expect(answer.chunks.at(-1)).toEqual({ type: "error", errorText: STREAM_ERROR });
    expect(JSON.stringify(answer.chunks)).not.toContain("The fake was told to fail");
    expect(answer.tools).toEqual([]);
    expect((await storedConversation(chatId)).messages.map((m) => m.role)).toEqual(["user"]);
    const failures = chatFailures().slice(logged);
    expect(failures).toHaveLength(1);
    expect((failures[0]!.err as { message: string }).message).toMatch(
      /Failed after 3 attempts\. Last error: The fake was told to fail/,
    );

    // The provider is back: the next question answers.
    const next = await ask(server.url, business.key, "What are your opening hours?", {
      workspace: business.slug,
      chatId,
    });
    expect(next.text).toMatch(/^Based on search_content: /);
  }, 30_000);
});

/** What the SDK asks of a model, and what a model streams back (the provider spec's V2 types, through the mock). */
type CallOptions = MockLanguageModelV2["doStreamCalls"][number];
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV2["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

describe("through the SDK's MockLanguageModelV2", () => {
  const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
  const streamOf = (chunks: StreamPart[]) => ({
    stream: simulateReadableStream<StreamPart>({ chunks: [{ type: "stream-start", warnings: [] }, ...chunks] }),
  });
  const callTool = (toolName: string, input: string) =>
    streamOf([
      { type: "tool-call", toolCallId: "call-mock-1", toolName, input },
      { type: "finish", finishReason: "tool-calls", usage },
    ]);
  const say = (text: string) =>
    streamOf([
      { type: "text-start", id: "text-mock-1" },
      { type: "text-delta", id: "text-mock-1", delta: text },
      { type: "text-end", id: "text-mock-1" },
      { type: "finish", finishReason: "stop", usage },
    ]);

  /** Answers with `model` in the server's chat service for the length of `run`. */
  async function withModel<T>(model: MockLanguageModelV2, run: () => Promise<T>): Promise<T> {
    const chat = server.atrium.runtime.services.chat;
    const configured = chat.model;
    chat.model = model;
    try {
      return await run();
    } finally {
      chat.model = configured;
    }
  }

  const toolResultsIn = (call: CallOptions) => call.prompt.flatMap((m) => (m.role === "tool" ? m.content : []));

  it("runs our real tool for the model's call and streams the model's text", async () => {
    const model = new MockLanguageModelV2({
      doStream: [callTool("low_stock", JSON.stringify({ threshold: 3 })), say("Restock the large seeded rye.")],
    });
    const from = fake.requests.length;
    const answer = await withModel(model, () =>
      ask(server.url, business.key, "What should we restock?", { workspace: business.slug }),
    );
    expect(fake.requests.length).toBe(from);
    expect(model.doStreamCalls).toHaveLength(2);

    expect(answer.tools).toMatchObject([
      {
        name: "low_stock",
        state: "output-available",
        input: { threshold: 3 },
        output: { threshold: 3, variants: [{ title: "Seeded rye", variantTitle: "Large", left: 1 }] },
      },
    ]);
    expect(answer.text).toBe("Restock the large seeded rye.");
    const types = answer.chunks.map((c) => c.type);
    expect(types).toEqual(expect.arrayContaining(["tool-input-available", "tool-output-available", "text-delta"]));
    expect(types.at(-1)).toBe("finish");

    // The model was offered our tools, with their JSON schemas, and the system prompt about this workspace.
    const [first, second] = model.doStreamCalls;
    const offered = (first!.tools ?? []).map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(["search_content", "low_stock", "sales_summary", "draft_page"]));
    expect(first!.tools!.find((t) => t.name === "low_stock")).toMatchObject({
      type: "function",
      inputSchema: { type: "object", properties: { threshold: { type: "integer" } } },
    });
    expect(first!.prompt[0]).toMatchObject({ role: "system", content: expect.stringContaining(business.name) });
    expect(first!.prompt.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "What should we restock?" }],
    });
    // …and, on its second call, the tool's result.
    expect(toolResultsIn(second!)).toMatchObject([
      {
        type: "tool-result",
        toolCallId: "call-mock-1",
        toolName: "low_stock",
        output: { type: "json", value: { threshold: 3, variants: [{ title: "Seeded rye", left: 1 }] } },
      },
    ]);
  });

  it("a tool input the tool's schema refuses is a tool input error part, and the answer still finishes", async () => {
    const model = new MockLanguageModelV2({
      doStream: [callTool("low_stock", JSON.stringify({ threshold: "lots" })), say("I could not check the stock.")],
    });
    const chatId = `model-invalid-${process.pid}`;
    const logged = chatFailures().length;
    const answer = await withModel(model, () =>
      ask(server.url, business.key, "What is low on stock?", { workspace: business.slug, chatId }),
    );
    const inputError = answer.chunks.find(
      (c): c is Extract<UIMessageChunk, { type: "tool-input-error" }> => c.type === "tool-input-error",
    );
    expect(inputError).toMatchObject({
      toolCallId: "call-mock-1",
      toolName: "low_stock",
      input: { threshold: "lots" },
      errorText: expect.stringMatching(/^The input for low_stock is invalid/),
    });
    expect(answer.chunks.some((c) => c.type === "tool-output-available")).toBe(false);
    expect(answer.chunks.some((c) => c.type === "error")).toBe(false);
    expect(JSON.stringify(answer.chunks)).not.toContain(STREAM_ERROR);
    expect(chatFailures().slice(logged)).toEqual([]);
    expect(answer.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    expect(answer.text).toBe("I could not check the stock.");
    const part = answer.message.parts.find((p) => p.type === "tool-low_stock" || p.type === "dynamic-tool");
    expect(part).toMatchObject({ state: "output-error", errorText: inputError!.errorText });

    // The model was told its input was refused, and the answer is stored like any other.
    expect(model.doStreamCalls).toHaveLength(2);
    expect(toolResultsIn(model.doStreamCalls[1]!)).toMatchObject([
      { type: "tool-result", toolCallId: "call-mock-1", toolName: "low_stock", output: { type: "error-text" } },
    ]);
    expect((await storedConversation(chatId)).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a tool that crashes is logged; the model and the client are told only that it could not run", async () => {
    const lowStock = server.atrium.runtime.services.chat.all().find((t) => t.name === "low_stock")!;
    const run = lowStock.run;
    lowStock.run = () => Promise.reject(new Error('SQLITE_ERROR: no such column: "secret_stock"'));
    const model = new MockLanguageModelV2({
      doStream: [callTool("low_stock", JSON.stringify({ threshold: 3 })), say("I could not check the stock.")],
    });
    const logged = chatFailures().length;
    const answer = await withModel(model, () =>
      ask(server.url, business.key, "What is low on stock?", { workspace: business.slug }),
    ).finally(() => {
      lowStock.run = run;
    });
    const toolError = "The tool could not run. Please try again later.";
    expect(answer.chunks).toContainEqual({
      type: "tool-output-error",
      toolCallId: "call-mock-1",
      errorText: toolError,
    });
    expect(answer.chunks.some((c) => c.type === "error")).toBe(false);
    expect(answer.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
    expect(answer.text).toBe("I could not check the stock.");
    expect(toolResultsIn(model.doStreamCalls[1]!)).toMatchObject([
      { type: "tool-result", toolName: "low_stock", output: { type: "error-text", value: toolError } },
    ]);
    expect(JSON.stringify(answer.chunks)).not.toContain("secret_stock");
    const failures = chatFailures().slice(logged);
    expect(failures).toHaveLength(1);
    expect((failures[0]!.err as { message: string }).message).toContain("secret_stock");
  });
});
