/** The console's Shop area (ADR 030): its tab bar and the words it uses for a product's status. */
import type { SectionTab } from "~/ui/section-tabs";

export const SHOP_TABS: readonly SectionTab[] = [
  { label: "Products", to: "/shop", end: true },
  { label: "Collections", to: "/shop/collections" },
  { label: "Orders", to: "/shop/orders" },
  { label: "Payments", to: "/shop/payments" },
  { label: "Subscriptions", to: "/shop/subscriptions" },
  { label: "Coupons", to: "/shop/coupons" },
  { label: "Taxes", to: "/shop/taxes" },
];

export const PRODUCT_STATUS_LABELS = { draft: "Draft", active: "Active", archived: "Archived" } as const;

/** The console's Shipping area (ADR 030, 034): the packages sent and the zones and rates customers choose from. */
export const SHIPPING_TABS: readonly SectionTab[] = [
  { label: "Shipments", to: "/shipping", end: true },
  { label: "Zones and rates", to: "/shipping/rates" },
];
