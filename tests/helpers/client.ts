import { openDatabase } from "../../db/client";
import type { TestDatabase } from "./database";
import { serversByUrl } from "./server";

/**
 * A browser without a browser: keeps cookies, sends the Origin a same-site form post would, and never
 * follows redirects, so tests see every status a user's browser would.
 */
export class Client {
  private cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  clearCookies() {
    this.cookies.clear();
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(this.headers);
    new Headers(init.headers).forEach((value, key) => headers.set(key, value));
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(new URL(path, this.base), { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request(path, { headers });
  }

  /** A form post as a browser sends it from a page of this site. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { origin: new URL(this.base).origin, "sec-fetch-site": "same-origin", ...headers },
    });
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", origin: new URL(this.base).origin, ...headers },
    });
  }
}

let counter = 0;
export function uniqueEmail(prefix = "operator"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

export const PASSWORD = "correct horse battery";

/**
 * The newest e-mail the test server at `base` recorded for `to` (outbox or SMTP, both are recorded; a link's
 * token is not: see `mailedText`). A server in another process (spawnBuiltServer) is read through its
 * `database`.
 */
export async function lastMailTo(
  base: string,
  to: string,
  database?: TestDatabase,
): Promise<{ subject: string; body: string }> {
  const running = serversByUrl.get(base);
  const handle = running ? undefined : database ? openDatabase(database.url, { poolSize: 1 }) : undefined;
  const db = running?.db ?? handle?.db;
  if (!db) throw new Error(`no test server at ${base}: pass its database`);
  try {
    const row = await db
      .selectFrom("mail_messages")
      .select(["subject", "body"])
      .where("to_address", "=", to.toLowerCase())
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!row) throw new Error(`no mail to ${to}`);
    return row;
  } finally {
    await handle?.close();
  }
}

/**
 * The full text of the newest message to `to` that the test server at `base` could not send (no SMTP_URL)
 * and so printed to its log: the only place a sign-up or invitation link with its token exists, as for a
 * developer finishing sign-up on a fresh install.
 */
export function mailedText(base: string, to: string): string {
  const server = serversByUrl.get(base);
  if (!server) throw new Error(`no test server at ${base}`);
  const text = mailedTextIn(server.logs, to);
  if (text === undefined) throw new Error(`no mail to ${to} in the log`);
  return text;
}

/** `mailedText` over any server's log lines (a server in another process prints them to its stdout). */
export function mailedTextIn(logs: Record<string, unknown>[], to: string): string | undefined {
  const line = logs.findLast((l) => l.to === to.toLowerCase() && String(l.msg).startsWith("No SMTP_URL"));
  return line && String(line.msg);
}

/** The path (and query) of the first link in `body` whose path starts with `prefix`. */
export function linkIn(body: string, prefix: string): string {
  for (const match of body.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(prefix)) return url.pathname + url.search;
  }
  throw new Error(`no ${prefix} link in: ${body}`);
}

/**
 * Signs up a new operator through the real form and the e-mailed link (ADR 004); returns the signed-in
 * client. `redirectTo` is carried through the link, as a page that asked for sign-in does. The link is read
 * where the mail went: the server's log without SMTP_URL, else `mailbox` (the test's SMTP server).
 */
export async function signUp(
  base: string,
  email = uniqueEmail(),
  options: { client?: Client; redirectTo?: string; mailbox?: (to: string) => string | Promise<string> } = {},
): Promise<{ client: Client; email: string; location: string }> {
  const client = options.client ?? new Client(base);
  const fields = { email, password: PASSWORD, ...(options.redirectTo ? { redirectTo: options.redirectTo } : {}) };
  const response = await client.post("/signup", fields);
  if (response.status !== 200) throw new Error(`sign-up failed with ${response.status}: ${await response.text()}`);
  const link = linkIn(await (options.mailbox ?? ((to) => mailedText(base, to)))(email), "/signup/confirm");
  const token = new URL(link, base).searchParams.get("token") ?? "";
  const confirmed = await client.post(link, { token });
  if (confirmed.status !== 302)
    throw new Error(`sign-up confirmation failed with ${confirmed.status}: ${await confirmed.text()}`);
  return { client, email, location: confirmed.headers.get("location") ?? "" };
}

/**
 * Adds `member` to the inviter's selected workspace as members are added (ADR 003): the members form sends an
 * invitation, and the member accepts it from the e-mailed link.
 */
export async function addMember(
  base: string,
  inviter: Client,
  member: { client: Client; email: string },
  role: string,
): Promise<void> {
  const invited = await inviter.post("/settings", { intent: "invite", email: member.email, role });
  if (invited.status !== 200) throw new Error(`invitation failed with ${invited.status}: ${await invited.text()}`);
  const link = linkIn(mailedText(base, member.email), "/invitations");
  const token = new URL(link, base).searchParams.get("token") ?? "";
  const accepted = await member.client.post(link, { token });
  if (accepted.status !== 302) throw new Error(`accepting failed with ${accepted.status}: ${await accepted.text()}`);
}

/** Creates a workspace through the picker's form (it becomes the selected one). */
export async function createWorkspace(client: Client, name: string, slug: string): Promise<void> {
  // `?index`: a form on an index route posts to that route, not to its layout.
  const response = await client.post("/?index", { intent: "create", name, slug });
  if (response.status !== 302)
    throw new Error(`workspace creation failed with ${response.status}: ${await response.text()}`);
}
