/**
 * A ticket's e-mails, sent by a job queued in the transaction that wrote the message (so a mail server that
 * is down delays them and loses none, and a retry sends each once: idempotency keys):
 *
 * - a customer's message (a new ticket or a reply) goes to the workspace's owners and admins, with a link to
 *   the inbox;
 * - the business's reply goes to the customer, unless they turned ticket e-mails off, with a link to the
 *   ticket in their portal — or, for a guest, a manage link (ADR 029) that opens this ticket only.
 */
import type { AppServices } from "~/lib/context";
import type { JobHandler } from "~/modules/jobs/jobs.server";
import { memberNotificationsOf } from "~/modules/customers/member-notifications.server";
import { withTokensHidden } from "~/modules/mail/mail.server";
import { siteAddressOf, siteUrl } from "~/modules/sites/address.server";
import { customersOf } from "./customers.server";
import { issueManageToken } from "./manage-tokens.server";
import { ticketsOf, type TicketMailPayload } from "./tickets.server";

/** How long a guest's link to their ticket works. */
export const GUEST_TICKET_LINK_DAYS = 30;

export function ticketMailHandler(services: AppServices): JobHandler {
  const { db, mailer } = services;
  return async (job) => {
    const workspaceId = job.workspace_id;
    if (!workspaceId) return;
    const { ticketId, messageId, origin } = JSON.parse(job.payload) as TicketMailPayload;
    const tickets = ticketsOf(db, workspaceId);
    const ticket = await tickets.byId(ticketId).catch(() => undefined);
    const message = ticket && (await tickets.messagesOf(ticketId)).find((m) => m.id === messageId);
    // Deleted (or erased) before the job ran: nothing to tell.
    if (!ticket || !message) return;
    const workspace = await db
      .selectFrom("workspaces")
      .select(["id", "name", "slug"])
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    if (!workspace) return;
    const label = `#${ticket.number} “${ticket.subject}”`;

    if (message.author === "customer") {
      const recipients = await memberNotificationsOf(db, workspaceId).recipients("newTickets");
      const who = ticket.name ? `${ticket.name} <${ticket.email}>` : ticket.email;
      const first = (await tickets.messagesOf(ticketId))[0]?.id === messageId;
      const text = [
        first
          ? `${who} opened a support request on ${workspace.name}'s site: ${label}`
          : `${who} wrote again on ${label}:`,
        "",
        message.body,
        "",
        `Answer it in your inbox: ${origin}/inbox/tickets/${ticket.id}`,
      ].join("\n");
      for (const email of recipients) {
        await mailer.send({
          workspaceId,
          to: email,
          subject: first ? `New request ${label}` : `New reply on ${label}`,
          text,
          idempotencyKey: `ticket-message:${messageId}:${email}`,
        });
      }
      return;
    }

    const customer = ticket.customerId ? await customersOf(db, workspaceId).find(ticket.customerId) : undefined;
    if (customer && !customer.notifications.ticketReplies) return;
    const address = await siteAddressOf(services, workspace, { origin, fromRequest: false });
    const site = address ?? { origin, base: `/${workspace.slug}` as const };
    let link: string;
    if (customer) {
      link = siteUrl(site, `/tickets/${ticket.id}`);
    } else {
      const token = await issueManageToken(db, workspaceId, {
        subjectType: "ticket",
        subjectId: ticket.id,
        actions: ["view", "reply", "close"],
        email: ticket.email,
        days: GUEST_TICKET_LINK_DAYS,
      });
      link = `${site.origin}/portal/callback?token=${token}`;
    }
    const text = [
      `${workspace.name} answered your request ${label}:`,
      "",
      message.body,
      "",
      customer
        ? `Read the conversation and reply: ${link}`
        : `Read the conversation and reply (this link works for ${GUEST_TICKET_LINK_DAYS} days): ${link}`,
    ].join("\n");
    await mailer.send({
      workspaceId,
      to: ticket.email,
      subject: `Re: ${ticket.subject} [#${ticket.number}]`,
      text,
      ...(customer ? {} : { storedText: withTokensHidden(text) }),
      idempotencyKey: `ticket-message:${messageId}:${ticket.email}`,
    });
  };
}
