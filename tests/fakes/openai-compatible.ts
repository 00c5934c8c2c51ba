/**
 * A local OpenAI-compatible model server for tests and development: the chat completions endpoint Atrium's chat
 * engine reaches through `@ai-sdk/openai-compatible` (`AI_BASE_URL`), streamed as server-sent events or answered
 * whole, and the model list. No model runs here — a small script answers, so tests can assert on what the assistant
 * says and which tool it calls, with no network, key or GPU:
 *
 * - the user speaks and tools are offered → one call of the tool named by a `use:<tool>` token in the text, else
 *   `search_content`, else the first tool, its required arguments filled from the tool's JSON schema (strings get the
 *   user's text without the token);
 * - a tool answered → `Based on <tool>: <the first 200 characters of its result>`;
 * - anything else → `You said: <the user's text>`;
 * - `fail:midstream` in the user's text → two pieces of the answer, then the connection drops.
 *
 * Answers follow OpenAI's wire format as the provider parses it: a tool call's deltas spread over several chunks,
 * `finish_reason` on a chunk of its own, the usage chunk (no choices) only when `stream_options.include_usage` asks
 * for it, `data: [DONE]` last, and OpenAI's error shape. Tests read every request the SDK sent (`requests`) and make
 * the next ones fail (`failNext`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, unknown>;

export interface FakeOpenAICompatibleRequest {
  path: string;
  headers: Record<string, string | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the SDK chose to send
  body: any;
}

export interface FakeOpenAICompatible {
  /** The provider's `baseURL` (ends in `/v1`). */
  url: string;
  model: string;
  /** Every request received, failed and refused ones too, its JSON body parsed. */
  requests: FakeOpenAICompatibleRequest[];
  /** The next `count` requests answer `status` with OpenAI's error body. */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

interface ChatMessage {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string } }>;
  tool_call_id?: string;
  name?: string;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
}

interface ChatTool {
  function?: { name?: string; parameters?: JsonSchema };
}

type Reply = { text: string; failMidstream?: boolean } | { tool: string; arguments: string };

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ["invalid_request_error", null],
  401: ["invalid_request_error", "invalid_api_key"],
  404: ["invalid_request_error", "model_not_found"],
  429: ["requests", "rate_limit_exceeded"],
};

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, message: string, code?: string | null) {
  const [type, defaultCode] = ERROR_TYPES[status] ?? ["server_error", null];
  send(res, status, { error: { message, type, param: null, code: code === undefined ? defaultCode : code } });
}

/** A message's text, whether the SDK sent it as a string or as parts (it sends parts once there is an image). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .filter((part: { type?: string; text?: unknown }) => part?.type === "text" && typeof part.text === "string")
      .map((part: { text: string }) => part.text)
      .join("\n");
  }
  return content == null ? "" : JSON.stringify(content);
}

/** Words keep their trailing space, so the pieces join back to the text exactly. */
const pieces = (text: string) => text.split(/(?<=\s)(?=\S)/);
const tokens = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A value the schema accepts: zod's `.int()` says `minimum: -2^53`, which no tool wants, so numbers start at 1. */
function valueFor(schema: JsonSchema, text: string): unknown {
  const branch = schema.anyOf?.find((s) => s.type !== "null");
  if (branch) return valueFor(branch, text);
  if (schema.enum?.length) return schema.enum[0];
  const type = [schema.type ?? "string"].flat().find((t) => t !== "null");
  switch (type) {
    case "string":
      return text;
    case "number":
    case "integer": {
      let n = Math.max(1, schema.minimum ?? 1);
      if (schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum) n = schema.exclusiveMinimum + 1;
      if (schema.maximum !== undefined && n > schema.maximum) n = schema.maximum;
      return type === "integer" ? Math.ceil(n) : n;
    }
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return argumentsFor(schema, text);
    default:
      return null;
  }
}

function argumentsFor(schema: JsonSchema | undefined, text: string): Json {
  return Object.fromEntries(
    (schema?.required ?? []).map((key) => [key, valueFor(schema?.properties?.[key] ?? {}, text)]),
  );
}

function script(body: Json): Reply {
  const messages = (body.messages as ChatMessage[]).filter((m) => m && typeof m === "object");
  const last = messages.at(-1);
  if (last?.role === "tool") {
    // The tool message carries only the call's id; the name is on the assistant's call it answers.
    const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id);
    const name = call?.function?.name ?? last.name ?? "tool";
    return { text: `Based on ${name}: ${textOf(last.content).slice(0, 200)}` };
  }
  const said = textOf(messages.findLast((m) => m.role === "user")?.content);
  if (last?.role !== "user") return { text: `You said: ${said}` };
  if (said.includes("fail:midstream")) return { text: `You said: ${said}`, failMidstream: true };

  const tools = (Array.isArray(body.tools) ? (body.tools as ChatTool[]) : []).filter((t) => t?.function?.name);
  const choice = body.tool_choice as string | { function?: { name?: string } } | undefined;
  if (tools.length === 0 || choice === "none") return { text: `You said: ${said}` };
  const named = (name: string | undefined) => tools.find((t) => t.function!.name === name);
  const asked = [...said.matchAll(/use:([\w-]+)/g)].map((m) => m[1]).find((name) => named(name));
  const tool =
    (typeof choice === "object" ? named(choice.function?.name) : undefined) ??
    named(asked) ??
    named("search_content") ??
    tools[0]!;
  const text = said
    .replace(/\s*use:[\w-]+\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { tool: tool.function!.name!, arguments: JSON.stringify(argumentsFor(tool.function!.parameters, text)) };
}

export async function startFakeOpenAICompatible(
  options: { port?: number; apiKey?: string; model?: string } = {},
): Promise<FakeOpenAICompatible> {
  const model = options.model ?? "atrium-fake";
  const requests: FakeOpenAICompatibleRequest[] = [];
  let failures = { count: 0, status: 500 };
  let serial = 0;

  async function complete(body: Json, res: ServerResponse): Promise<void> {
    const reply = script(body);
    serial += 1;
    const id = `chatcmpl-fake-${serial}`;
    const created = Math.floor(Date.now() / 1000);
    const call = "tool" in reply ? { id: `call_fake_${serial}`, name: reply.tool, arguments: reply.arguments } : null;
    const text = "text" in reply ? reply.text : "";
    const prompt = (body.messages as ChatMessage[]).reduce((sum, m) => sum + tokens(textOf(m?.content)), 0);
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: tokens(call ? call.arguments : text),
      total_tokens: prompt + tokens(call ? call.arguments : text),
    };
    const failMidstream = "failMidstream" in reply && reply.failMidstream;

    if (body.stream !== true) {
      if (failMidstream) return void res.socket?.destroy(); // a whole answer cannot break halfway; it never comes
      return send(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: call ? null : text,
              refusal: null,
              ...(call && {
                tool_calls: [
                  { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
                ],
              }),
            },
            logprobs: null,
            finish_reason: call ? "tool_calls" : "stop",
          },
        ],
        usage,
      });
    }

    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    // Each event waits for the socket to take it, so the client sees pieces arrive and a drop lands after them.
    const event = (data: unknown) =>
      new Promise<void>((resolve, reject) =>
        res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`, (e) =>
          e ? reject(e) : resolve(),
        ),
      );
    const chunk = (delta: Json, finishReason: string | null = null) =>
      event({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(includeUsage && { usage: null }),
      });

    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    if (call) {
      await chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      });
      const size = Math.ceil(call.arguments.length / 3);
      for (let at = 0; at < call.arguments.length; at += size) {
        await chunk({ tool_calls: [{ index: 0, function: { arguments: call.arguments.slice(at, at + size) } }] });
      }
      await chunk({}, "tool_calls");
    } else {
      await chunk({ role: "assistant", content: "", refusal: null });
      for (const [n, piece] of pieces(text).entries()) {
        if (failMidstream && n === 2) return void res.destroy();
        await chunk({ content: piece });
      }
      await chunk({}, "stop");
    }
    if (includeUsage) await event({ id, object: "chat.completion.chunk", created, model, choices: [], usage });
    await event("[DONE]");
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : value]),
    );
    let body: unknown;
    let unreadable = false;
    try {
      body = await readJson(req);
    } catch {
      unreadable = true;
    }
    requests.push({ path, headers, body });

    if (failures.count > 0) {
      failures.count -= 1;
      return error(res, failures.status, "The fake was told to fail");
    }
    if (options.apiKey && headers.authorization !== `Bearer ${options.apiKey}`) {
      return error(res, 401, "Incorrect API key provided. You can find your API key in your account settings.");
    }
    if (req.method === "GET" && path === "/v1/models") {
      return send(res, 200, { object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "atrium" }] });
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      if (unreadable) return error(res, 400, "We could not parse the JSON body of your request.");
      const request = (body ?? {}) as Json;
      if (request.model !== model) {
        return error(
          res,
          404,
          `The model \`${String(request.model)}\` does not exist or you do not have access to it.`,
        );
      }
      if (!Array.isArray(request.messages) || request.messages.length === 0) {
        return error(res, 400, "'messages' must contain at least one message.", "invalid_value");
      }
      return complete(request, res);
    }
    error(res, 404, `Unknown request URL: ${req.method} ${path}.`, "unknown_url");
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) res.destroy();
      else error(res, 500, String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;

  return {
    url: `http://${address.address}:${address.port}/v1`,
    model,
    requests,
    failNext(count, status) {
      failures = { count, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
