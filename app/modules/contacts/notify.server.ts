/**
 * Telling the business that a visitor wrote: a job queued with the message (in the same transaction), which
 * e-mails the members who want to hear of contact messages (by default the owners and admins; ADR 029) through the
 * mail module — so each mail is in the workspace's outbox,
 * sent once per recipient however often the job is retried (idempotency key), and the visitor's request never
 * waits on a mail server.
 */
import type { Db } from "~db/client";
import { memberNotificationsOf } from "~/modules/customers/member-notifications.server";
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
    const recipients = await memberNotificationsOf(db, workspaceId).recipients("newMessages");
    const text = [
      `${message.name} <${message.email}> wrote through the contact form of ${workspace.name}'s site:`,
      "",
      message.message,
      "",
      `Reply to ${message.email}, or read it in your inbox: ${origin}/inbox/${message.id}`,
    ].join("\n");
    for (const email of recipients) {
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
