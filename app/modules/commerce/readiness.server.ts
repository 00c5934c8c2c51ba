/**
 * Is the shop ready to sell? (ADR 030) Five things a customer meets at checkout, each ticked from the workspace's
 * real state and linking to where it is done: the currency chosen, a way to be paid, delivery set up, the
 * refund and shipping policies published, and something for sale. Served by `GET /api/editor/shop`, shown on the
 * console's Shop page, and joined to the get-started checklist.
 */
import type { Db } from "~db/client";
import { policiesOf } from "~/modules/sites/policies.server";
import { profileOf } from "~/modules/sites/profile.server";
import { productsOf } from "./catalogue.server";
import { PAYMENT_PROVIDERS, paymentSetupOf } from "./payments.server";
import { shippingOf } from "./prices.server";

export interface ReadinessItem {
  id: "shop-currency" | "shop-payments" | "shop-shipping" | "shop-policies" | "shop-product";
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

export async function shopReadiness(db: Db, workspaceId: string): Promise<ReadinessItem[]> {
  const [profile, setup, rates, policies, active] = await Promise.all([
    profileOf(db, workspaceId).get(),
    paymentSetupOf(db, workspaceId),
    shippingOf(db, workspaceId).rates(),
    policiesOf(db, workspaceId).published(),
    productsOf(db, workspaceId).countActive(),
  ]);
  const connected = PAYMENT_PROVIDERS.some((p) => p.connection(setup).connected);
  const published = new Set(policies.map((p) => p.kind));
  return [
    {
      id: "shop-currency",
      title: "Choose your currency",
      description: `Prices are in ${profile.currency}. Confirm it in your business profile before you add prices.`,
      // The profile's currency is a default until the business profile is saved once.
      done: profile.updatedAt !== null,
      href: "/website/profile",
      action: "Review the business profile",
    },
    {
      id: "shop-payments",
      title: "Get paid",
      description: "Connect Stripe for card payments or PayPal, or turn on bank transfer or pay on pickup.",
      done: connected,
      href: "/settings/integrations/payments",
      action: "Set up payments",
    },
    {
      id: "shop-shipping",
      title: "Set up delivery",
      description: "Add where you ship and what it costs, or local pickup.",
      done: rates.length > 0,
      href: "/shipping/rates",
      action: "Add delivery rates",
    },
    {
      id: "shop-policies",
      title: "Publish your refund and shipping policies",
      description: "Customers read them before they buy; the checkout links to them.",
      done: published.has("refund") && published.has("shipping"),
      href: "/website/policies",
      action: "Write the policies",
    },
    {
      id: "shop-product",
      title: "Put a product on sale",
      description: "Add a product with its price and stock, and make it active.",
      done: active > 0,
      href: "/shop",
      action: active > 0 ? "See your products" : "Add a product",
    },
  ];
}
