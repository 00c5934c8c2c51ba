/**
 * Guest claim (ADR 029): what someone did as a guest with an e-mail address — tickets, orders (ADR 030), and
 * bookings with scheduling — becomes a customer's only once that customer proved the address (a code or
 * link reached it). Typing an address into a form proves nothing, so nothing else calls this.
 */
import type { Db } from "~db/client";
import type { Customer } from "./customers.server";

export async function claimGuestRecords(db: Db, workspaceId: string, customer: Customer): Promise<void> {
  if (!customer.emailVerified) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("tickets")
      .set({ customer_id: customer.id })
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", customer.email)
      .where("customer_id", "is", null)
      .execute();
    await trx
      .updateTable("orders")
      .set({ customer_id: customer.id })
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", customer.email)
      .where("customer_id", "is", null)
      .execute();
    await trx
      .updateTable("contact_events")
      .set({ customer_id: customer.id })
      .where("workspace_id", "=", workspaceId)
      .where("email", "=", customer.email)
      .where("customer_id", "is", null)
      .execute();
  });
}
