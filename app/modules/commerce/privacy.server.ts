/**
 * Erasing a shop's customer (ADR 029, 033): their subscriptions are ended at Stripe first — Stripe must not go on
 * charging a card for someone the shop no longer knows, and after the erasure nothing would find them — then their
 * data is erased as the customers module does. Stripe failing is a 503 and nothing is erased.
 */
import type { AppServices } from "~/lib/context";
import { type PrivacyActor, eraseCustomer } from "~/modules/customers/privacy.server";
import { endSubscriptionsOf } from "./stripe-billing.server";

export async function eraseShopCustomer(
  services: Pick<AppServices, "db" | "secrets" | "env" | "logger">,
  workspaceId: string,
  customerId: string,
  actor: PrivacyActor,
): Promise<void> {
  await endSubscriptionsOf(services, workspaceId, customerId);
  await eraseCustomer(services.db, workspaceId, customerId, actor);
}
