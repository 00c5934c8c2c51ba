/**
 * A real SMTP server in the test's process (smtp-server), for a test server started with its `url` as SMTP_URL:
 * every message it takes is kept whole (`delivered`), and `mailbox(to)` reads the newest to an address with
 * quoted-printable undone.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface TestSmtp {
  url: string;
  delivered: { to: string[]; data: string }[];
  mailbox(to: string): string;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const delivered: TestSmtp["delivered"] = [];
  const smtp = new SMTPServer({
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
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    mailbox(to) {
      const data = delivered.findLast((d) => d.to.includes(to))?.data;
      if (!data) throw new Error(`no mail to ${to}`);
      return data
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
