/**
 * Payment providers (ADR 030, 032, 035): one interface every provider implements — the manual provider, Stripe
 * (stripe.server.ts) and PayPal (paypal.server.ts). A provider says which ways to pay it offers a workspace at checkout, how an
 * order placed with one of them is paid (instructions to show, or its hosted page to send the customer to), and
 * whether it is connected (Settings → Payments, and the shop's readiness).
 *
 * Whatever the provider, a payment is applied by `finalisePayment` (orders.server.ts), which pays an order once
 * however many times or however concurrently it is told.
 */
import type { Db } from "~db/client";
import { type PaymentConnection, connectionStatesOf } from "./connections.server";
import { type CommerceSettings, commerceSettingsOf } from "./settings.server";

/** What a provider decides from: the shop's settings and its providers' connections. */
export interface PaymentSetup {
  settings: CommerceSettings;
  connections: PaymentConnection[];
}

export async function paymentSetupOf(db: Db, workspaceId: string): Promise<PaymentSetup> {
  const [settings, connections] = await Promise.all([
    commerceSettingsOf(db, workspaceId).get(),
    connectionStatesOf(db, workspaceId).list(),
  ]);
  return { settings, connections };
}

export interface PaymentMethod {
  /** `{provider}:{method}`, as stored on the order. */
  id: string;
  provider: string;
  label: string;
  /** Shown at checkout under the choice. */
  description: string;
}

/**
 * What the customer does next: read instructions (a bank transfer), or pay on the provider's hosted page, which
 * the order page's "Pay" button opens (a fresh or the still-open checkout of that provider).
 */
export type PaymentStart =
  | { kind: "instructions"; title: string; text: string }
  | { kind: "hosted"; provider: string; title: string; text: string; button: string };

export interface ProviderConnection {
  connected: boolean;
  /** In words, for the settings page: what is set up, or what is missing. */
  detail: string;
}

export interface PaymentProvider {
  id: string;
  name: string;
  methods(setup: PaymentSetup): PaymentMethod[];
  /** What the customer does next for an unpaid order (shown after checkout, in the e-mail and on resume). */
  start(
    order: { number: number; total: number; currency: string; paymentMethod: string },
    setup: PaymentSetup,
  ): PaymentStart;
  connection(setup: PaymentSetup): ProviderConnection;
}

/** Bank transfer with the business's own instructions, or paying when collecting: an operator marks it paid. */
export const manualProvider: PaymentProvider = {
  id: "manual",
  name: "Manual payments",
  methods({ settings }) {
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
  start(order, { settings }) {
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
  connection({ settings }) {
    const ways = [settings.bankTransfer ? "bank transfer" : null, settings.payOnPickup ? "pay on pickup" : null].filter(
      Boolean,
    );
    return ways.length
      ? { connected: true, detail: `Customers can choose ${ways.join(" or ")}.` }
      : { connected: false, detail: "Turn on bank transfer or pay on pickup to take orders without a card provider." };
  },
};

/** A card provider on its own hosted page (Stripe's Checkout, PayPal's approval), once its connection works. */
function hostedProvider(spec: {
  id: string;
  name: string;
  method: Omit<PaymentMethod, "id" | "provider"> & { id: string };
  start: Omit<Extract<PaymentStart, { kind: "hosted" }>, "kind" | "provider">;
  missing: string;
}): PaymentProvider {
  return {
    id: spec.id,
    name: spec.name,
    methods(setup) {
      if (!this.connection(setup).connected) return [];
      return [{ ...spec.method, id: `${spec.id}:${spec.method.id}`, provider: spec.id }];
    },
    start: () => ({ kind: "hosted", provider: spec.id, ...spec.start }),
    connection({ connections }) {
      const c = connections.find((x) => x.provider === spec.id);
      if (!c) return { connected: false, detail: spec.missing };
      return { connected: c.status === "connected", detail: c.detail };
    },
  };
}

/** Stripe's card payments through its hosted Checkout page (ADR 032). */
export const stripeProvider = hostedProvider({
  id: "stripe",
  name: "Stripe",
  method: {
    id: "card",
    label: "Card",
    description: "Pay by card on Stripe's secure page; you come back here when it is done.",
  },
  start: {
    title: "Pay by card",
    text: "Your order is held for you while you pay. The payment page is Stripe's; you come back here after.",
    button: "Pay by card",
  },
  missing: "Connect your Stripe account to take card payments.",
});

/** PayPal's wallet (and the cards PayPal takes as a guest) through its approval page (ADR 035). */
export const paypalProvider = hostedProvider({
  id: "paypal",
  name: "PayPal",
  method: {
    id: "wallet",
    label: "PayPal",
    description: "Pay with your PayPal account on PayPal's page; you come back here when it is done.",
  },
  start: {
    title: "Pay with PayPal",
    text: "Your order is held for you while you pay. You approve the payment on PayPal's page and come back here.",
    button: "Pay with PayPal",
  },
  missing: "Connect your PayPal app to take PayPal payments.",
});

export const PAYMENT_PROVIDERS: readonly PaymentProvider[] = [manualProvider, stripeProvider, paypalProvider];

export function providerOf(methodId: string): PaymentProvider | undefined {
  const [provider] = methodId.split(":");
  return PAYMENT_PROVIDERS.find((p) => p.id === provider);
}

export function paymentMethods(setup: PaymentSetup): PaymentMethod[] {
  return PAYMENT_PROVIDERS.flatMap((p) => p.methods(setup));
}
