/**
 * A cancelled booking's payments still open (ADR 036): each pending order for it is cancelled — its provider's
 * page closed first when `release` can (commerce's `cardRelease`) — so a payment made on a page left open is
 * refunded by commerce as a late one, never kept for a booking that is gone. One paid meanwhile stands, and the
 * order hook records it on the booking for the business to refund.
 */
import type { Db } from "~db/client";
import { isDomainError } from "~/lib/errors";
import { ordersOf, type ReleaseCheckout } from "~/modules/commerce/orders.server";

export async function endOpenPayments(
  db: Db,
  workspaceId: string,
  bookingId: string,
  origin: string,
  release?: ReleaseCheckout,
): Promise<void> {
  const pending = await db
    .selectFrom("booking_payments")
    .innerJoin("orders", "orders.id", "booking_payments.order_id")
    .select("orders.id")
    .where("booking_payments.workspace_id", "=", workspaceId)
    .where("booking_payments.booking_id", "=", bookingId)
    .where("orders.status", "=", "pending")
    .execute();
  const orders = ordersOf(db, workspaceId);
  for (const { id } of pending) {
    try {
      if (release && !(await release(workspaceId, await orders.byId(id)))) continue;
      await orders.cancel(id, { system: "expired" }, { origin });
    } catch (error) {
      // Paid or cancelled meanwhile: nothing left open.
      if (!(isDomainError(error) && error.kind === "conflict")) throw error;
    }
  }
}
