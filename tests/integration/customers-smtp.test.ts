/**
 * A customer's sign-in code through a real SMTP server (smtp-server, in this process), as a deployment with
 * SMTP_URL sends it (ADR 029): the code arrives by mail, signs in once, and the server's log never holds it.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { askForCode, customerCookie } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";

let smtp: SMTPServer;
let server: TestServer;
const delivered: { to: string[]; data: string }[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        delivered.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Atrium Test <atrium@example.test>" });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The newest message the SMTP server took for `to`, quoted-printable undone. */
function mailbox(to: string): string {
  const data = delivered.findLast((d) => d.to.includes(to))?.data;
  if (!data) throw new Error(`no mail to ${to}`);
  return data
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe("a sign-in code by SMTP", () => {
  it("reaches the customer's mailbox and signs them in; the log never shows it", async () => {
    const slug = `smtp-${process.pid}`;
    const { client: owner } = await signUp(server.url, uniqueEmail(), { mailbox });
    await createWorkspace(owner, "Mail Bakery", slug);
    const email = uniqueEmail("customer");
    const client = new Client(server.url);
    const challenge = await askForCode(client, slug, email);
    const text = mailbox(email);
    expect(text).toContain("Subject: Your sign-in code for Mail Bakery");
    const code = /\n {4}(\d{3}) (\d{3})\r?\n/.exec(text);
    expect(code).not.toBeNull();
    const signedIn = await client.post(`/${slug}/login`, {
      intent: "code",
      challenge,
      code: `${code![1]}${code![2]}`,
      email,
    });
    expect(signedIn.status).toBe(303);
    expect(client.cookie(customerCookie(slug))).toBeTruthy();
    expect((await client.get(`/${slug}/account`)).status).toBe(200);
    expect(JSON.stringify(server.logs)).not.toContain(`${code![1]} ${code![2]}`);
  });
});
