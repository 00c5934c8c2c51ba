/**
 * The receipt carries its invoice (issue 18, ADR 032), through a real SMTP server (smtp-server, in this process) as
 * a deployment with SMTP_URL sends it: the paid order's e-mail has the invoice PDF attached, read back with
 * pdftotext for its number and total, sent once; the stored copy names the attachment.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { drainJobs } from "../helpers/jobs";
import { startServer, type TestServer } from "../helpers/server";
import { startSmtp, type TestSmtp } from "../helpers/smtp";
import { buy, openShop } from "../helpers/shop";
import { tempDir, type TempDir } from "../helpers/temp";

let smtp: TestSmtp;
let server: TestServer;
let folder: TempDir;

beforeAll(async () => {
  folder = tempDir("atrium-invoice-mail");
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: "Atrium Test <atrium@example.test>" });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
  folder.remove();
});

/** The base64 body of the MIME part whose headers name `filename`. */
function attachment(data: string, filename: string): Buffer | null {
  const part = data.split(/\r?\n--/).find((p) => p.includes(`filename=${filename}`) || p.includes(`name=${filename}`));
  if (!part) return null;
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join("\n");
  return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
}

describe("the payment receipt", () => {
  it("has the invoice PDF attached, once", async () => {
    const slug = `invoice-mail-${process.pid}`;
    const { client: owner } = await signUp(server.url, uniqueEmail(), { mailbox: (to) => smtp.mailbox(to) });
    await createWorkspace(owner, "Receipt Bakery", slug);
    const { id: workspaceId } = await server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    const shop = await openShop(server.db, workspaceId);
    const email = uniqueEmail("receipt");
    const orderId = await buy(new Client(server.url), slug, shop, { email });
    expect((await owner.post(`/shop/orders/${orderId}`, { intent: "paid" })).status).toBe(303);
    await drainJobs(server);

    const receipts = smtp.delivered.filter(
      (d) => d.to.includes(email) && d.data.includes("Payment received for order"),
    );
    expect(receipts).toHaveLength(1);
    const mime = receipts[0]!.data;
    expect(mime).toMatch(/Content-Type: application\/pdf; name=invoice-1\.pdf/);
    expect(mime).toContain("Content-Disposition: attachment; filename=invoice-1.pdf");
    const pdf = attachment(mime, "invoice-1.pdf");
    expect(pdf?.subarray(0, 5).toString()).toBe("%PDF-");
    const file = join(folder.path, "invoice-1.pdf");
    writeFileSync(file, pdf!);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Invoice 1");
    expect(text).toMatch(/Total\s+\$8\.45/);

    const stored = await server.db
      .selectFrom("mail_messages")
      .select(["body", "status"])
      .where("to_address", "=", email)
      .where("subject", "like", "Payment received%")
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe("sent");
    expect(stored.body).toContain("Your invoice (invoice-1.pdf) is attached");
    expect(stored.body).toMatch(/Attached: invoice-1\.pdf \(\d+ KB\)/);
  });
});
