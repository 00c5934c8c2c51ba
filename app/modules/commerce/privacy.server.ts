/**
 * A shop's side of privacy and deletion. Erasing a customer (ADR 029, 033): their subscriptions are ended at Stripe
 * first — Stripe must not go on charging a card for someone the shop no longer knows, and after the erasure nothing
 * would find them — then their data is erased as the customers module does; Stripe unreachable is a 503 and
 * nothing is erased. Deleting the shop with its owner's account: `shopFarewell` (below).
 */
import type { AppServices } from "~/lib/context";
import { type PrivacyActor, eraseCustomer } from "~/modules/customers/privacy.server";
import { connectionStatesOf } from "./connections.server";
import { disconnectEasyPost } from "./easypost.server";
import { endSubscriptionsOf } from "./stripe-billing.server";
import { forgetStripeEndpoint } from "./stripe.server";
import { LIVE_STATUSES } from "./subscriptions.server";

export async function eraseShopCustomer(
  services: Pick<AppServices, "db" | "secrets" | "env" | "logger">,
  workspaceId: string,
  customerId: string,
  actor: PrivacyActor,
): Promise<void> {
  await endSubscriptionsOf(services, workspaceId, customerId);
  await eraseCustomer(services.db, workspaceId, customerId, actor);
}

/**
 * A shop's farewell before its workspace is deleted with its owner's account (tenancy's `workspaceFarewells`):
 * every running Stripe subscription is ended now, and the webhooks Atrium registered with Stripe and EasyPost are
 * removed, so no customer is charged by a shop that no longer exists and no provider keeps sending its events.
 * Each step is on its own: one provider failing does not keep the other from being told.
 */
export async function shopFarewell(
  services: Pick<AppServices, "db" | "secrets" | "env" | "logger">,
  workspaceId: string,
): Promise<void> {
  const connections = connectionStatesOf(services.db, workspaceId);
  const [stripe, easypost] = await Promise.all([connections.get("stripe"), connections.get("easypost")]);
  const steps: Array<[string, () => Promise<unknown>]> = [];
  if (stripe) {
    const customers = await services.db
      .selectFrom("subscriptions")
      .select("customer_id")
      .distinct()
      .where("workspace_id", "=", workspaceId)
      .where("status", "in", [...LIVE_STATUSES])
      .execute();
    for (const { customer_id } of customers)
      steps.push(["end a customer's subscriptions", () => endSubscriptionsOf(services, workspaceId, customer_id)]);
    steps.push(["remove Stripe's webhook endpoint", () => forgetStripeEndpoint(services, workspaceId)]);
  }
  if (easypost) steps.push(["remove EasyPost's webhook", () => disconnectEasyPost(services, workspaceId, null)]);
  for (const [doing, step] of steps)
    await step().catch((error: unknown) =>
      services.logger.warn({ err: error, workspace: workspaceId }, `deleting a shop: could not ${doing}`),
    );
}
