/**
 * Telling the business that a visitor wrote: a job queued with the message (in the same transaction), which
 * e-mails the workspace's owner and admins through the mail module — so each mail is in the workspace's outbox,
 * sent once per recipient however often the job is retried (idempotency key), and the visitor's request never
 * waits on a mail server.
 */
import type { Db } from "~db/client";
import type { JobHandler } from "~/modules/jobs/jobs.server";
import type { Mailer } from "~/modules/mail/mail.server";
import { contactMessagesOf, type NotifyPayload } from "./messages.server";

export function notifyHandler({ db, mailer }: { db: Db; mailer: Mailer }): JobHandler {
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const { messageId, origin } = JSON.parse(job.payload) as NotifyPayload;
    const message = await contactMessagesOf(db, workspaceId)
      .byId(messageId)
      .catch(() => undefined);
    // Deleted before the job ran: nothing to tell.
    if (!message) return;
    const workspace = await db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirst();
    if (!workspace) return;
    const recipients = await db
      .selectFrom("workspace_members as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select("u.email")
      .where("m.workspace_id", "=", workspaceId)
      .where("m.role", "in", ["owner", "admin"])
      .where("u.status", "=", "active")
      .orderBy("u.email")
      .execute();
    const text = [
      `${message.name} <${message.email}> wrote through the contact form of ${workspace.name}'s site:`,
      "",
      message.message,
      "",
      `Reply to ${message.email}, or read it in your inbox: ${origin}/inbox/${message.id}`,
    ].join("\n");
    for (const { email } of recipients) {
      await mailer.send({
        workspaceId,
        to: email,
        subject: `New message from ${message.name}`,
        text,
        idempotencyKey: `contact-message:${message.id}:${email}`,
      });
    }
  };
}
