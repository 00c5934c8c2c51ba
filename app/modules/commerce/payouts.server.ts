/**
 * Payouts (issue 18, ADR 032): what the shop's payment provider sent from its balance to the shop's bank. Stripe
 * reports them with `payout.*` events; each event only says which payout changed — it is read back from Stripe
 * (events come in any order), and a read older than what is kept changes nothing. `/shop/payments` lists them.
 */
import { sql } from "kysely";
import type Stripe from "stripe";
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import type { AppServices } from "~/lib/context";
import { newId } from "~/lib/ids.server";
import { paymentConnectionsOf } from "./connections.server";
import { type StripeCredentials, stripeApi, stripeFailure } from "./stripe.server";

export interface Payout {
  id: string;
  provider: string;
  reference: string;
  status: string;
  amount: number;
  currency: string;
  arrivalDate: string;
  detail: string;
}

export const PAYOUT_STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  in_transit: "On its way",
  paid: "Paid out",
  failed: "Failed",
  canceled: "Cancelled",
};

export function payoutsOf(db: Db, workspaceId: string) {
  return {
    /** The latest payouts, by when they arrive (or arrived), newest first. */
    async latest(limit: number): Promise<Payout[]> {
      const rows = await db
        .selectFrom("payouts")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .orderBy("arrival_date", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        provider: r.provider,
        reference: r.reference,
        status: r.status,
        amount: r.amount,
        currency: r.currency,
        arrivalDate: r.arrival_date,
        detail: r.detail,
      }));
    },

    /** Keeps what the provider said of one payout, unless what is kept was read later. */
    async apply(payout: Omit<Payout, "id"> & { at: number }): Promise<void> {
      const at = isoNow();
      const changing = {
        status: payout.status,
        amount: payout.amount,
        currency: payout.currency,
        arrival_date: payout.arrivalDate,
        detail: payout.detail,
        provider_updated_at: payout.at,
        updated_at: at,
      };
      await db
        .insertInto("payouts")
        .values({
          id: newId(),
          workspace_id: workspaceId,
          provider: payout.provider,
          reference: payout.reference,
          created_at: at,
          ...changing,
        })
        .onConflict((oc) =>
          oc
            .columns(["workspace_id", "provider", "reference"])
            .doUpdateSet(changing)
            .where(sql<boolean>`payouts.provider_updated_at <= ${payout.at}`),
        )
        .execute();
    },
  };
}

/** A `payout.*` event: the payout read from Stripe now and kept (Stripe failing is a 503; it sends it again). */
export async function refreshStripePayout(
  services: Pick<AppServices, "db" | "secrets" | "env" | "logger">,
  workspaceId: string,
  reported: Stripe.Payout,
): Promise<void> {
  const credentials = await paymentConnectionsOf(services, workspaceId).credentials<StripeCredentials>("stripe");
  let payout: Stripe.Payout;
  try {
    payout = await stripeApi(services.env, credentials.secretKey).payouts.retrieve(reported.id);
  } catch (error) {
    throw stripeFailure(error, "read the payout");
  }
  await payoutsOf(services.db, workspaceId).apply({
    provider: "stripe",
    reference: payout.id,
    status: payout.status,
    amount: payout.amount,
    currency: payout.currency.toUpperCase(),
    arrivalDate: new Date(payout.arrival_date * 1000).toISOString(),
    detail: payout.failure_message ?? "",
    at: Math.floor(now().getTime() / 1000),
  });
}
