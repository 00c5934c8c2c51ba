/**
 * Payment providers (ADR 030): one interface every provider implements — the manual provider now, Stripe and
 * PayPal with the next issue. A provider says which ways to pay it offers a workspace at checkout, how an order
 * placed with one of them is paid (instructions to show, or a page to send the customer to), and whether it is
 * connected (Settings → Payments, and the shop's readiness).
 *
 * Whatever the provider, a payment is applied by `finalisePayment` (orders.server.ts), which pays an order once
 * however many times or however concurrently it is told.
 */
import type { CommerceSettings } from "./settings.server";

export interface PaymentMethod {
  /** `{provider}:{method}`, as stored on the order. */
  id: string;
  provider: string;
  label: string;
  /** Shown at checkout under the choice. */
  description: string;
}

export type PaymentStart = { kind: "instructions"; title: string; text: string } | { kind: "redirect"; url: string };

export interface ProviderConnection {
  connected: boolean;
  /** In words, for the settings page: what is set up, or what is missing. */
  detail: string;
}

export interface PaymentProvider {
  id: string;
  name: string;
  methods(settings: CommerceSettings): PaymentMethod[];
  /** What the customer does next for an unpaid order (shown after checkout, in the e-mail and on resume). */
  start(
    order: { number: number; total: number; currency: string; paymentMethod: string },
    settings: CommerceSettings,
  ): PaymentStart;
  connection(settings: CommerceSettings): ProviderConnection;
}

/** Bank transfer with the business's own instructions, or paying when collecting: an operator marks it paid. */
export const manualProvider: PaymentProvider = {
  id: "manual",
  name: "Manual payments",
  methods(settings) {
    const methods: PaymentMethod[] = [];
    if (settings.bankTransfer)
      methods.push({
        id: "manual:bank_transfer",
        provider: "manual",
        label: "Bank transfer",
        description: "You get the bank details after placing the order. It ships once the money arrives.",
      });
    if (settings.payOnPickup)
      methods.push({
        id: "manual:pay_on_pickup",
        provider: "manual",
        label: "Pay on pickup",
        description: "Pay when you collect your order.",
      });
    return methods;
  },
  start(order, settings) {
    if (order.paymentMethod === "manual:pay_on_pickup")
      return {
        kind: "instructions",
        title: "Pay when you collect",
        text: "Bring your order number; you pay when you pick it up.",
      };
    return {
      kind: "instructions",
      title: "How to pay by bank transfer",
      text: `${settings.bankInstructions}\n\nReference: order #${order.number}`,
    };
  },
  connection(settings) {
    const ways = [settings.bankTransfer ? "bank transfer" : null, settings.payOnPickup ? "pay on pickup" : null].filter(
      Boolean,
    );
    return ways.length
      ? { connected: true, detail: `Customers can choose ${ways.join(" or ")}.` }
      : { connected: false, detail: "Turn on bank transfer or pay on pickup to take orders without a card provider." };
  },
};

export const PAYMENT_PROVIDERS: readonly PaymentProvider[] = [manualProvider];

export function providerOf(methodId: string): PaymentProvider | undefined {
  const [provider] = methodId.split(":");
  return PAYMENT_PROVIDERS.find((p) => p.id === provider);
}

export function paymentMethods(settings: CommerceSettings): PaymentMethod[] {
  return PAYMENT_PROVIDERS.flatMap((p) => p.methods(settings));
}
