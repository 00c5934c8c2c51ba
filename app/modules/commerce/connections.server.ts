/**
 * A workspace's connections to card payment providers (ADR 032): the keys the operator entered, sealed with the
 * app key and bound to this workspace and provider (a sealed value copied into another row does not open); the
 * account the provider answered as; and the state it last reported — a check from the settings page, or an
 * account event (`account.updated`, a deauthorisation) through `/api/webhooks/payments`. The shop's readiness
 * and the checkout read `status`: only a `connected` provider is offered to customers.
 */
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { notFound } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import type { SecretBox } from "~/modules/secrets/secret-box.server";

export const CONNECTION_STATUSES = ["connected", "error", "deauthorized"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export interface PaymentConnection {
  provider: string;
  status: ConnectionStatus;
  accountId: string | null;
  accountName: string;
  webhookEndpointId: string | null;
  detail: string;
  checkedAt: string;
}

export interface SaveConnection<C> {
  credentials: C;
  accountId: string | null;
  accountName: string;
  webhookEndpointId: string | null;
  detail: string;
}

const boundTo = (workspaceId: string, provider: string) => `payment_connection:${workspaceId}:${provider}`;

// The table holds the shop's shipping provider too (ADR 034): its audit entries say so.
const areaOf = (provider: string) => (provider === "easypost" ? "shipping" : "payments");

/** The connections' states, which need no key to read or set (the checkout, the readiness, account events). */
export function connectionStatesOf(db: Db, workspaceId: string) {
  const rows = () => db.selectFrom("payment_connections").where("workspace_id", "=", workspaceId);
  const toConnection = (r: {
    provider: string;
    status: string;
    account_id: string | null;
    account_name: string;
    webhook_endpoint_id: string | null;
    detail: string;
    checked_at: string;
  }): PaymentConnection => ({
    provider: r.provider,
    status: r.status as ConnectionStatus,
    accountId: r.account_id,
    accountName: r.account_name,
    webhookEndpointId: r.webhook_endpoint_id,
    detail: r.detail,
    checkedAt: r.checked_at,
  });

  return {
    async list(): Promise<PaymentConnection[]> {
      return (await rows().selectAll().orderBy("provider").execute()).map(toConnection);
    },

    async get(provider: string): Promise<PaymentConnection | null> {
      const row = await rows().selectAll().where("provider", "=", provider).executeTakeFirst();
      return row ? toConnection(row) : null;
    },

    /** What a check or an account event found. Answers whether there was a connection to update. */
    async setState(provider: string, status: ConnectionStatus, detail: string): Promise<boolean> {
      const at = isoNow();
      const done = await db
        .updateTable("payment_connections")
        .set({ status, detail, checked_at: at, updated_at: at })
        .where("workspace_id", "=", workspaceId)
        .where("provider", "=", provider)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },
  };
}

/** The connections with their keys: connecting, opening the keys to call the provider, disconnecting. */
export function paymentConnectionsOf(services: { db: Db; secrets: SecretBox }, workspaceId: string) {
  const { db, secrets } = services;
  const rows = () => db.selectFrom("payment_connections").where("workspace_id", "=", workspaceId);
  return {
    ...connectionStatesOf(db, workspaceId),

    /** The provider's keys, opened; a 404 when the workspace has not connected it. */
    async credentials<C>(provider: string): Promise<C> {
      const row = await rows().select("credentials").where("provider", "=", provider).executeTakeFirst();
      if (!row) throw notFound(`This shop has not connected ${provider}`);
      return JSON.parse(secrets.open(row.credentials, boundTo(workspaceId, provider))) as C;
    },

    async save<C>(provider: string, input: SaveConnection<C>, actorUserId: string | null): Promise<void> {
      const at = isoNow();
      const values = {
        status: "connected",
        account_id: input.accountId,
        account_name: input.accountName,
        credentials: secrets.seal(JSON.stringify(input.credentials), boundTo(workspaceId, provider)),
        webhook_endpoint_id: input.webhookEndpointId,
        detail: input.detail,
        checked_at: at,
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("payment_connections")
          .values({ workspace_id: workspaceId, provider, ...values })
          .onConflict((oc) => oc.columns(["workspace_id", "provider"]).doUpdateSet(values))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: `${areaOf(provider)}.connected`,
          actorUserId,
          ip: null,
          detail: { provider, account: input.accountId },
        });
      });
    },

    async remove(provider: string, actorUserId: string | null): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("payment_connections")
          .where("workspace_id", "=", workspaceId)
          .where("provider", "=", provider)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: `${areaOf(provider)}.disconnected`,
          actorUserId,
          ip: null,
          detail: { provider },
        });
      });
    },
  };
}
