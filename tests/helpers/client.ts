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

/** Signs up a new operator through the real form; returns the signed-in client. */
export async function signUp(base: string, email = uniqueEmail()): Promise<{ client: Client; email: string }> {
  const client = new Client(base);
  const response = await client.post("/signup", { email, password: PASSWORD });
  if (response.status !== 302) throw new Error(`sign-up failed with ${response.status}: ${await response.text()}`);
  return { client, email };
}

/** Creates a workspace through the picker's form (it becomes the selected one). */
export async function createWorkspace(client: Client, name: string, slug: string): Promise<void> {
  // `?index`: a form on an index route posts to that route, not to its layout.
  const response = await client.post("/?index", { intent: "create", name, slug });
  if (response.status !== 302)
    throw new Error(`workspace creation failed with ${response.status}: ${await response.text()}`);
}
