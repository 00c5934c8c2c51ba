/**
 * The mail module against a real SMTP server (smtp-server, in this process): a SOP's send_email step goes out
 * over SMTP when SMTP_URL is set, a refusal by the mail server is retried, and the console lists what was sent.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, linkIn, signUp } from "../helpers/client";
import { TOKEN_NOT_STORED } from "~/modules/mail/mail.server";
import { startServer, type TestServer } from "../helpers/server";
import { consoleTrigger, createSop, trigger, waitForRun } from "../helpers/sops";

interface Delivered {
  from: string;
  to: string[];
  data: string;
}

let smtp: SMTPServer;
let server: TestServer;
const delivered: Delivered[] = [];
let refuseNext = 0;
let refuseCode = 451;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuseNext > 0) {
        refuseNext -= 1;
        const error = Object.assign(new Error(refuseCode >= 500 ? "No such mailbox" : "Try again later"), {
          responseCode: refuseCode,
        });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        delivered.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Atrium Test <atrium@example.test>",
    JOBS_POLL_MS: "50",
    JOBS_RETRY_BASE_MS: "20",
  });
});
/** The text of the newest message the SMTP server took for `to` (quoted-printable undone). */
function mailbox(to: string): string {
  const data = delivered.findLast((d) => d.to.includes(to))?.data;
  if (!data) throw new Error(`no mail to ${to}`);
  return data
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("e-mail over SMTP", () => {
  it("sends a SOP's e-mail through the mail server, retrying a temporary refusal, and lists it as sent", async () => {
    const { client, email } = await signUp(server.url, undefined, { mailbox });
    // The link went out whole over SMTP; the record keeps it without its token, and the log does not print it.
    const token = new URL(linkIn(mailbox(email), "/signup/confirm"), server.url).searchParams.get("token")!;
    const recorded = await server.db
      .selectFrom("mail_messages")
      .select(["body", "status"])
      .where("to_address", "=", email)
      .execute();
    expect(recorded).toEqual([{ body: expect.stringContaining(`token=${TOKEN_NOT_STORED}`), status: "sent" }]);
    expect(server.logs.filter((l) => JSON.stringify(l).includes(token))).toEqual([]);
    await createWorkspace(client, "Mailer", "mailer-ws");
    const id = await createSop(client, {
      name: "Welcome",
      slug: "welcome-mail",
      steps: [
        { type: "send_email", to: "{{input.email}}", subject: "Welcome {{input.name}}", body: "Hello {{input.name}}!" },
      ],
    });
    const secret = await consoleTrigger(client, id);
    refuseNext = 1;
    const { statusUrl } = (await (
      await trigger(server.url, id, secret, { email: "bo@example.com", name: "Bo" })
    ).json()) as {
      statusUrl: string;
    };
    const run = await waitForRun(client, statusUrl);
    expect(run.status, JSON.stringify(run)).toBe("succeeded");
    expect(run.attempts).toBe(2);
    expect(run.steps[0]!.output).toMatchObject({ transport: "smtp", to: "bo@example.com" });

    // The sign-up link went through the same server; the SOP's message is the one to Bo.
    const toBo = delivered.filter((d) => d.to.includes("bo@example.com"));
    expect(toBo).toHaveLength(1);
    expect(toBo[0]!.from).toBe("atrium@example.test");
    expect(toBo[0]!.to).toEqual(["bo@example.com"]);
    expect(toBo[0]!.data).toContain("Subject: Welcome Bo");
    expect(toBo[0]!.data).toContain("Hello Bo!");

    const outbox = await (await client.get("/settings/outbox")).text();
    expect(outbox).toContain("E-mail sent through the configured mail server.");
    expect(outbox).toContain("to bo@example.com · Welcome Bo (sent)");
  });

  it("fails the step at once when the mail server refuses for good (5xx)", async () => {
    const { client } = await signUp(server.url, undefined, { mailbox });
    await createWorkspace(client, "Refused", "refused-ws");
    const id = await createSop(client, {
      name: "Bounce",
      slug: "bounce-mail",
      steps: [{ type: "send_email", to: "nobody@example.com", subject: "Hi", body: "Hi" }],
    });
    const secret = await consoleTrigger(client, id);
    refuseNext = 1;
    refuseCode = 550;
    const { statusUrl } = (await (await trigger(server.url, id, secret, {})).json()) as { statusUrl: string };
    const run = await waitForRun(client, statusUrl);
    expect(run.status).toBe("failed");
    expect(run.attempts).toBe(1);
    expect(run.steps[0]!.error).toContain("No such mailbox");
  });
});
