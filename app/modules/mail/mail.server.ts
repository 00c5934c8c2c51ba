/**
 * The one mail module (DESIGN "Shared services: mail"). With SMTP_URL it sends through nodemailer; without,
 * every message lands in the development outbox the console shows, so a fresh install can see what it would
 * have sent. Both record each message, keyed by an optional idempotency key: a retried job step does not
 * send twice once its message went out.
 *
 * A sign-up or invitation link is a credential (a sign-up link signs its holder in), so the record keeps the
 * message with the link's token replaced (`storedText`, DESIGN rule 4): a database backup or the workspace
 * outbox must not hand out live links. Such a message that no SMTP server carried exists nowhere else, so
 * outside production the log prints it in full, as it does account mail, which no workspace's outbox shows:
 * that is how a fresh install's first operator finishes signing up. In production the log only says so,
 * since logs travel to collectors.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import { newId } from "~/lib/ids.server";
import { RetryableError } from "~/modules/jobs/jobs.server";

export interface OutgoingMail {
  workspaceId: string | null;
  to: string;
  subject: string;
  text: string;
  /** What the record keeps instead of `text`, when `text` carries a credential (see `withTokensHidden`). */
  storedText?: string;
  idempotencyKey?: string;
  /** Files sent with it (an invoice's PDF). The record names them; their bytes are not stored twice. */
  attachments?: ReadonlyArray<MailAttachment>;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** The line a stored message carries for its attachments, so the outbox says what went with it. */
export function attachmentNote(attachments: ReadonlyArray<MailAttachment> | undefined): string {
  if (!attachments?.length) return "";
  const size = (n: number) => (n < 1024 ? `${n} B` : `${Math.ceil(n / 1024)} KB`);
  return `\n\nAttached: ${attachments.map((a) => `${a.filename} (${size(a.content.length)})`).join(", ")}`;
}

export const TOKEN_NOT_STORED = "[sent by e-mail, not stored]";

/** `text` with the value of every `token=` query parameter replaced: the copy of a link mail that is stored. */
export function withTokensHidden(text: string): string {
  return text.replace(/([?&]token=)[^\s&#]+/g, `$1${TOKEN_NOT_STORED}`);
}

export interface SentMail {
  id: string;
  transport: "outbox" | "smtp";
  /** The key had been used: nothing new was sent. */
  duplicate: boolean;
}

export interface Mailer {
  readonly transport: "outbox" | "smtp";
  send(mail: OutgoingMail): Promise<SentMail>;
}

export function createMailer(
  db: Db,
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "OUTBOUND_TIMEOUT_MS" | "production">,
  logger: Logger,
): Mailer {
  // Bounded like every outbound call, so a silent mail server cannot hold a job (or a shutdown) for minutes.
  const timeout = env.OUTBOUND_TIMEOUT_MS;
  const smtp: Transporter | null = env.SMTP_URL
    ? nodemailer.createTransport({
        url: env.SMTP_URL,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      })
    : null;
  const transport = smtp ? "smtp" : "outbox";

  async function deliver(id: string, mail: OutgoingMail) {
    if (!smtp) return;
    try {
      await smtp.sendMail({
        from: env.MAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachments?.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.updateTable("mail_messages").set({ status: "failed", error: message }).where("id", "=", id).execute();
      logger.warn({ mail: id, err: message }, "SMTP delivery failed");
      // A 5xx reply is final (no such mailbox, refused); 4xx, timeouts and network errors may pass later.
      const code = (error as { responseCode?: unknown }).responseCode;
      const permanent = typeof code === "number" && code >= 500;
      const text = `The mail server refused the message: ${message}`;
      throw permanent ? Object.assign(new Error(text), { permanent: true }) : new RetryableError(text);
    }
    // Outside the try: once the server accepted it, a failure to record that must not send it again.
    await db.updateTable("mail_messages").set({ status: "sent", error: null }).where("id", "=", id).execute();
  }

  /** Without SMTP, a message whose text no outbox page shows is only in the log (see the file's comment). */
  function announce(mail: OutgoingMail) {
    if (smtp || (mail.workspaceId !== null && mail.storedText === undefined)) return;
    const what = mail.workspaceId === null ? "account mail" : "mail with a link";
    if (env.production) {
      logger.warn({ subject: mail.subject }, `No SMTP_URL: ${what} was not sent; set SMTP_URL to send it`);
    } else {
      logger.info({ to: mail.to, subject: mail.subject }, `No SMTP_URL: ${what} is shown only here.\n${mail.text}`);
    }
  }

  /** The message already written under this mail's idempotency key, in its workspace. */
  const byKey = (mail: OutgoingMail) =>
    mail.idempotencyKey
      ? db
          .selectFrom("mail_messages")
          .select(["id", "status"])
          .where("idempotency_key", "=", mail.idempotencyKey)
          .where((eb) =>
            mail.workspaceId === null ? eb("workspace_id", "is", null) : eb("workspace_id", "=", mail.workspaceId),
          )
          .executeTakeFirst()
      : Promise.resolve(undefined);

  return {
    transport,
    async send(mail) {
      const previous = await byKey(mail);
      if (previous && previous.status !== "failed") return { id: previous.id, transport, duplicate: true };
      if (previous) {
        await deliver(previous.id, mail);
        return { id: previous.id, transport, duplicate: false };
      }
      const id = newId();
      try {
        await db
          .insertInto("mail_messages")
          .values({
            id,
            workspace_id: mail.workspaceId,
            idempotency_key: mail.idempotencyKey ?? null,
            transport,
            to_address: mail.to,
            subject: mail.subject,
            body: (mail.storedText ?? mail.text) + attachmentNote(mail.attachments),
            status: smtp ? "failed" : "outbox",
            error: smtp ? "not sent yet" : null,
            created_at: isoNow(),
          })
          .execute();
      } catch (error) {
        // Two attempts raced on the same key: the other one sends; answer with its message.
        const winner = isUniqueViolation(error) ? await byKey(mail) : undefined;
        if (winner) return { id: winner.id, transport, duplicate: true };
        throw error;
      }
      await deliver(id, mail);
      announce(mail);
      return { id, transport, duplicate: false };
    },
  };
}

/**
 * Housekeeping: account mail (no workspace) written before `before`. Nobody reads it after its link expired,
 * and it names an address that may never have become an account.
 */
export async function purgeAccountMail(db: Db, before: string): Promise<void> {
  await db.deleteFrom("mail_messages").where("workspace_id", "is", null).where("created_at", "<", before).execute();
}

export interface MailView {
  id: string;
  to: string;
  subject: string;
  body: string;
  transport: string;
  status: string;
  error: string | null;
  createdAt: string;
}

/** A workspace's messages, newest first (the console's outbox). */
export function mailOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("mail_messages").where("workspace_id", "=", workspaceId);
  return {
    async list(page: { size: number; offset: number }): Promise<MailView[]> {
      const list = await rows()
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(page.size)
        .offset(page.offset)
        .execute();
      return list.map((m) => ({
        id: m.id,
        to: m.to_address,
        subject: m.subject,
        body: m.body,
        transport: m.transport,
        status: m.status,
        error: m.error,
        createdAt: m.created_at,
      }));
    },
    async count(): Promise<number> {
      const row = await rows()
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
