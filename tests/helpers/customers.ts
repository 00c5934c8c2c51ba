/**
 * Customers of a test server's sites (ADR 029): ask for a sign-in code on a site's page as a browser does, read
 * the code and link from where the mail went (the server's log without SMTP_URL), and sign in.
 */
import { Client, mailedText } from "./client";

/** The code and the link path of the newest sign-in (or e-mail change) mail to `email`. */
export function codeMailTo(base: string, email: string): { code: string; link: string; text: string } {
  const text = mailedText(base, email);
  const code = /\n {4}(\d{3}) (\d{3})\n/.exec(text);
  const link = /https?:\/\/\S+\/auth\/callback\?token=[\w-]+/.exec(text);
  if (!code || !link) throw new Error(`no code in the mail to ${email}: ${text}`);
  const url = new URL(link[0]);
  return { code: `${code[1]}${code[2]}`, link: url.pathname + url.search, text };
}

/** Asks `/{slug}/login` for a code; answers the page's challenge id (the code form's hidden field). */
export async function askForCode(client: Client, slug: string, email: string, next = ""): Promise<string> {
  const res = await client.post(`/${slug}/login`, { intent: "send", email, next });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`asking for a code failed with ${res.status}: ${html}`);
  const challenge = /name="challenge" value="([^"]+)"/.exec(html)?.[1];
  if (!challenge) throw new Error(`no code form in: ${html}`);
  return challenge;
}

/** Signs `email` in on `/{slug}` with an e-mailed code; answers the signed-in client. */
export async function signInCustomer(
  base: string,
  slug: string,
  email: string,
  client = new Client(base),
): Promise<Client> {
  const challenge = await askForCode(client, slug, email);
  const { code } = codeMailTo(base, email);
  const res = await client.post(`/${slug}/login`, { intent: "code", challenge, code, email, next: "" });
  if (res.status !== 303) throw new Error(`signing in failed with ${res.status}: ${await res.text()}`);
  return client;
}

export const customerCookie = (slug: string) => `atrium_customer_${slug}`;
