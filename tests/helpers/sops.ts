/**
 * SOPs through the console as an operator would make them, and signed trigger requests computed here with
 * node:crypto directly (not the app's signer), so a test checks the server against the spec, not against
 * itself.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { Client } from "./client";

export type StepFields = Record<string, string> & { type: string };

/** Creates a SOP through /settings/sops and saves its steps through the editor's form; returns its id. */
export async function createSop(
  client: Client,
  sop: { name: string; slug: string; steps?: StepFields[]; callbackUrl?: string; description?: string },
): Promise<string> {
  const created = await client.post("/settings/sops?index", {
    name: sop.name,
    slug: sop.slug,
    description: sop.description ?? "",
  });
  expect(created.status, await created.clone().text()).toBe(302);
  const id = /\/settings\/sops\/([0-9A-Z]{26})/.exec(created.headers.get("location") ?? "")?.[1];
  if (!id) throw new Error(`no SOP id in ${created.headers.get("location")}`);
  if (sop.steps?.length || sop.callbackUrl) {
    const saved = await saveSop(client, id, { ...sop, steps: sop.steps ?? [] });
    expect(saved.status, await saved.clone().text()).toBe(200);
  }
  return id;
}

export function stepFields(steps: StepFields[]): Record<string, string> {
  const fields: Record<string, string> = {};
  steps.forEach((step, i) => {
    for (const [key, value] of Object.entries(step)) fields[`step.${i}.${key}`] = value;
  });
  return fields;
}

export function saveSop(
  client: Client,
  id: string,
  sop: { name: string; slug: string; steps: StepFields[]; callbackUrl?: string; description?: string },
) {
  return client.post(`/settings/sops/${id}`, {
    intent: "save",
    name: sop.name,
    slug: sop.slug,
    description: sop.description ?? "",
    callbackUrl: sop.callbackUrl ?? "",
    ...stepFields(sop.steps),
  });
}

/** "Create trigger" (or "Rotate secret") in the console; the secret is read from the page, as a user copies it. */
export async function consoleTrigger(client: Client, sopId: string, rotate?: string): Promise<string> {
  const response = await client.post(`/settings/sops/${sopId}`, {
    intent: rotate ? "rotate-trigger" : "create-trigger",
    ...(rotate ? { triggerId: rotate } : {}),
  });
  const html = await response.text();
  expect(response.status, html.slice(0, 500)).toBe(200);
  const secret = /data-testid="trigger-secret">([^<]+)</.exec(html)?.[1];
  if (!secret) throw new Error("no secret on the page");
  return secret;
}

export function sign(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  return { "X-SOP-Timestamp": String(timestamp), "X-SOP-Signature": signature };
}

export function trigger(
  base: string,
  ref: string,
  secret: string,
  input: unknown = {},
  init: { timestamp?: number } = {},
) {
  const body = JSON.stringify({ input });
  return fetch(`${base}/api/sops/${ref}/trigger`, {
    method: "POST",
    headers: { "content-type": "application/json", ...sign(secret, body, init.timestamp) },
    body,
  });
}

/** Polls a run (as the console's operator) until it has finished. */
export async function waitForRun(
  client: Client,
  statusUrl: string,
  until: (run: RunBody) => boolean = (run) => run.status === "succeeded" || run.status === "failed",
  timeoutMs = 15_000,
): Promise<RunBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(statusUrl);
    expect(response.status).toBe(200);
    const run = (await response.json()) as RunBody;
    if (until(run)) return run;
    if (Date.now() > deadline) throw new Error(`run still ${run.status}: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RunBody {
  id: string;
  sopId: string;
  status: string;
  input: Record<string, unknown>;
  attempts: number;
  error: string | null;
  steps: { index: number; type: string; name: string; status: string; output: unknown; error: string | null }[];
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type Answer = { status: number; body?: string } | "hang";

/**
 * A local HTTP target for http_request steps and completion notices; `respond` decides each answer (a promise
 * holds the answer back until the test lets it go).
 */
export async function startTarget(
  respond: (request: Received, count: number) => Answer | Promise<Answer> = () => ({ status: 200 }),
): Promise<{ url: string; received: Received[]; close(): Promise<void>; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(entry);
      const n = received.length;
      void Promise.resolve(respond(entry, n)).then((answer) => {
        if (answer === "hang" || res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(answer.body ?? JSON.stringify({ ok: true, n }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
