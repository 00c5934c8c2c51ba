/**
 * What other modules do when an order they sold through the shop is paid or cancelled (scheduling's deposits,
 * ADR 036). Commerce knows nothing of them: each module contributes its hooks (`orderHooks`), commerce's module
 * gathers them at start, and `finalisePayment` and `cancel` run them in the transaction that changes the order — so
 * a booking is confirmed exactly when its deposit is recorded, and freed exactly when its order goes.
 */
import type { Db } from "~db/client";

export interface OrderHooks {
  /** The order was just marked paid (once, whoever reported the payment). */
  paid?(trx: Db, workspaceId: string, order: { id: string; total: number }, origin: string): Promise<void>;
  /** The order was just cancelled (released unpaid, or cancelled by the customer or the console). */
  cancelled?(trx: Db, workspaceId: string, orderId: string, origin: string): Promise<void>;
}

declare module "~/lib/module" {
  interface ModuleContributions {
    /** Hooks run in the transaction that pays or cancels a shop order. */
    orderHooks: OrderHooks[];
  }
}

let registered: readonly OrderHooks[] = [];

/** Set once per start from every module's contributions (the same list for every server in a process). */
export function registerOrderHooks(hooks: readonly OrderHooks[]): void {
  registered = hooks;
}

export async function orderPaid(trx: Db, workspaceId: string, order: { id: string; total: number }, origin: string) {
  for (const hook of registered) await hook.paid?.(trx, workspaceId, order, origin);
}

export async function orderCancelled(trx: Db, workspaceId: string, orderId: string, origin: string) {
  for (const hook of registered) await hook.cancelled?.(trx, workspaceId, orderId, origin);
}
