/**
 * A workspace's shop settings (ADR 030): whether prices include tax, whether shipping is taxed, the manual
 * provider's ways to pay (bank transfer with the business's instructions, pay on pickup), how long an unpaid
 * order holds its stock, and how long its customer may cancel it. The currency is the business profile's.
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";

export interface CommerceSettings {
  pricesIncludeTax: boolean;
  taxShipping: boolean;
  bankTransfer: boolean;
  bankInstructions: string;
  payOnPickup: boolean;
  holdDays: number;
  cancelWindowHours: number;
}

export const DEFAULT_COMMERCE_SETTINGS: CommerceSettings = {
  pricesIncludeTax: true,
  taxShipping: true,
  bankTransfer: false,
  bankInstructions: "",
  payOnPickup: false,
  holdDays: 7,
  cancelWindowHours: 24,
};

export const CommerceSettingsInput = z
  .object({
    pricesIncludeTax: z.boolean(),
    taxShipping: z.boolean(),
    bankTransfer: z.boolean(),
    bankInstructions: z.string().trim().max(2000, "Keep the instructions under 2,000 characters"),
    payOnPickup: z.boolean(),
    holdDays: z.number().int().min(1, "Hold stock for at least a day").max(60, "At most 60 days"),
    cancelWindowHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 30, "At most 30 days"),
  })
  .superRefine((s, ctx) => {
    if (s.bankTransfer && s.bankInstructions === "")
      ctx.addIssue({
        code: "custom",
        path: ["bankInstructions"],
        message: "Say where to send the money (account holder, IBAN, reference)",
      });
  });

export function commerceSettingsOf(db: Db, workspaceId: string) {
  return {
    async get(): Promise<CommerceSettings> {
      const row = await db
        .selectFrom("commerce_settings")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      if (!row) return DEFAULT_COMMERCE_SETTINGS;
      return {
        pricesIncludeTax: !!row.prices_include_tax,
        taxShipping: !!row.tax_shipping,
        bankTransfer: !!row.bank_transfer,
        bankInstructions: row.bank_instructions,
        payOnPickup: !!row.pay_on_pickup,
        holdDays: row.hold_days,
        cancelWindowHours: row.cancel_window_hours,
      };
    },
    async update(input: CommerceSettings, actorUserId: string | null): Promise<void> {
      const values = {
        prices_include_tax: input.pricesIncludeTax ? 1 : 0,
        tax_shipping: input.taxShipping ? 1 : 0,
        bank_transfer: input.bankTransfer ? 1 : 0,
        bank_instructions: input.bankInstructions,
        pay_on_pickup: input.payOnPickup ? 1 : 0,
        hold_days: input.holdDays,
        cancel_window_hours: input.cancelWindowHours,
        updated_at: isoNow(),
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("commerce_settings")
          .values({ workspace_id: workspaceId, ...values })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet(values))
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "commerce.settings_updated",
          actorUserId,
          detail: { bankTransfer: input.bankTransfer, payOnPickup: input.payOnPickup },
        });
      });
    },
  };
}
