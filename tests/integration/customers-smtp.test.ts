/**
 * A customer's sign-in code through a real SMTP server (smtp-server, in this process), as a deployment with
 * SMTP_URL sends it (ADR 029): the code arrives by mail, signs in once, and the server's log never holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { askForCode, customerCookie } from "../helpers/customers";
import { startServer, type TestServer } from "../helpers/server";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

let smtp: TestSmtp;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: "Atrium Test <atrium@example.test>" });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const mailbox = (to: string) => smtp.mailbox(to);

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
