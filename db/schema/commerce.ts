/**
 * Owned by `app/modules/commerce` (issue 17, ADR 030). Created in 0027-commerce; `payment_connections`,
 * `invoices`, `invoice_counters` and the orders' `checkout_*` columns in 0028-commerce-payment-providers (ADR 032);
 * `subscriptions`, `subscription_charges` and the products' `subscription_*` columns in 0029-commerce-subscriptions
 * (ADR 033); `payouts` in 0030-commerce-payouts; `shipments`, `shipment_lines` and `shipment_events` in
 * 0031-commerce-shipments (ADR 034). Money columns are integers
 * in minor units (an order's in its own `currency`, the catalogue's in the business profile's).
 */
import type { Generated, Selectable } from "kysely";

export interface CommerceSettingsTable {
  workspace_id: string;
  prices_include_tax: number;
  tax_shipping: number;
  /** The manual provider's two ways to pay: bank transfer (with these instructions) and pay on pickup. */
  bank_transfer: number;
  bank_instructions: string;
  pay_on_pickup: number;
  /** How long an unpaid manual order holds its stock before it is cancelled. */
  hold_days: number;
  /** How long after placing an unpaid order its customer may cancel it themself. */
  cancel_window_hours: number;
  updated_at: string;
}

export interface ProductsTable {
  id: string;
  workspace_id: string;
  slug: string;
  title: string;
  /** Markdown, as the operator wrote it; `description_html` is its rendering (sites' renderer), made at save. */
  description: string;
  description_html: string;
  vendor: string;
  product_type: string;
  /** JSON array of strings. */
  tags: string;
  /** "draft" | "active" | "archived". */
  status: string;
  /** JSON: `[{ name, values: string[] }]`, at most three. */
  options: string;
  seo_title: string;
  seo_description: string;
  /** Sold as a subscription when set: "week" | "month" | "year", every `_count` of them, after `_trial_days`. */
  subscription_interval: string | null;
  subscription_interval_count: Generated<number>;
  subscription_trial_days: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ProductVariantsTable {
  id: string;
  workspace_id: string;
  product_id: string;
  /** JSON array: one value per product option, in order. */
  options: string;
  /** The option values joined, unique per product. */
  option_key: string;
  sku: string | null;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  weight_grams: number;
  inventory_tracked: number;
  /** Keep selling when out of stock (backorders). */
  continue_selling: number;
  /** On hand. */
  stock: number;
  /** Held by unpaid orders (`stock_reservations`). */
  reserved: number;
  requires_shipping: number;
  taxable: number;
  /** A `product_images.id` shown when this variant is picked. */
  image_id: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface ProductImagesTable {
  id: string;
  workspace_id: string;
  product_id: string;
  file_id: string;
  alt: string;
  /** Where an imported image came from (the CSV's `Image Src`), so importing again does not fetch it twice. */
  source_url: string | null;
  position: number;
  created_at: string;
}

export interface CollectionsTable {
  id: string;
  workspace_id: string;
  slug: string;
  title: string;
  description: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface CollectionProductsTable {
  workspace_id: string;
  collection_id: string;
  product_id: string;
  position: number;
}

export interface CouponsTable {
  id: string;
  workspace_id: string;
  /** Upper-cased; unique per workspace. */
  code: string;
  /** "percent" | "fixed". */
  kind: string;
  /** percent: whole percent; fixed: minor units. */
  value: number;
  min_subtotal: number;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  used_count: number;
  product_ids: string;
  collection_ids: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface CouponUsesTable {
  workspace_id: string;
  coupon_id: string;
  /** `customer:{id}` or `email:{address}`. */
  buyer: string;
  uses: number;
}

export interface TaxRatesTable {
  id: string;
  workspace_id: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** "" for the whole country; else a region code or name as the address form has it. */
  region: string;
  name: string;
  rate_bp: number;
  created_at: string;
}

export interface ShippingZonesTable {
  id: string;
  workspace_id: string;
  name: string;
  /** JSON array of ISO 3166-1 alpha-2 codes. */
  countries: string;
  created_at: string;
}

export interface ShippingRatesTable {
  id: string;
  workspace_id: string;
  zone_id: string | null;
  name: string;
  /** "flat" | "weight" | "pickup". */
  kind: string;
  price: number;
  min_weight_grams: number | null;
  max_weight_grams: number | null;
  /** Free when the subtotal after discounts reaches this. */
  free_over: number | null;
  instructions: string;
  created_at: string;
}

export interface CartsTable {
  id: string;
  workspace_id: string;
  /** SHA-256 of the cart cookie's secret. */
  token_hash: string;
  customer_id: string | null;
  coupon_code: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  /** JSON `Address`. */
  address: string | null;
  shipping_rate_id: string | null;
  payment_method: string | null;
  /** Set when the cart became an order. */
  order_id: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export interface CartLinesTable {
  id: string;
  workspace_id: string;
  cart_id: string;
  variant_id: string;
  quantity: number;
  /** What the line was called and cost when added: shown if the product is gone, compared if the price moved. */
  title: string;
  seen_price: number;
  created_at: string;
}

export interface OrdersTable {
  id: string;
  workspace_id: string;
  number: number;
  cart_id: string | null;
  customer_id: string | null;
  email: string;
  name: string;
  phone: string | null;
  address: string | null;
  currency: string;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  refunded: number;
  prices_include_tax: number;
  coupon_id: string | null;
  coupon_code: string | null;
  shipping_method: string;
  payment_provider: string;
  payment_method: string;
  /** pending | paid | partially_fulfilled | fulfilled | completed | cancelled | refunded */
  status: string;
  reserved_until: string | null;
  paid_at: string | null;
  fulfilled_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  erased_at: string | null;
  /** A provider's hosted checkout for this order (a Stripe Checkout Session's id), its address and expiry. */
  checkout_reference: string | null;
  checkout_url: string | null;
  checkout_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLinesTable {
  id: string;
  workspace_id: string;
  order_id: string;
  product_id: string | null;
  variant_id: string | null;
  title: string;
  variant_title: string;
  sku: string | null;
  unit_price: number;
  quantity: number;
  discount: number;
  tax: number;
  total: number;
  fulfilled_quantity: number;
  weight_grams: number;
  position: number;
}

export interface StockReservationsTable {
  id: string;
  workspace_id: string;
  order_id: string;
  variant_id: string;
  quantity: number;
  expires_at: string;
}

export interface OrderEventsTable {
  id: string;
  workspace_id: string;
  order_id: string;
  kind: string;
  /** JSON. */
  detail: string;
  actor_user_id: string | null;
  created_at: string;
}

export interface PaymentsTable {
  id: string;
  workspace_id: string;
  order_id: string;
  provider: string;
  /** "payment" | "refund". */
  kind: string;
  amount: number;
  currency: string;
  /** The provider's id for it (the manual provider: `manual:{orderId}:paid`, …); unique per provider. */
  reference: string;
  note: string;
  actor_user_id: string | null;
  created_at: string;
}

export interface PaymentConnectionsTable {
  workspace_id: string;
  /** "stripe" | "paypal". */
  provider: string;
  /** connected | error | deauthorized */
  status: string;
  account_id: string | null;
  account_name: string;
  /** JSON of the provider's keys, sealed with the app key for `payment_connection:{workspace}:{provider}`. */
  credentials: string;
  /** The webhook endpoint Atrium registered with the provider, when it made one. */
  webhook_endpoint_id: string | null;
  /** What the last check or account event said, in words. */
  detail: string;
  checked_at: string;
  updated_at: string;
}

/** One per paid order; `number` counts from 1 per workspace without gaps (invoice_counters). */
export interface InvoicesTable {
  id: string;
  workspace_id: string;
  order_id: string;
  number: number;
  issued_at: string;
}

export interface InvoiceCountersTable {
  workspace_id: string;
  last_number: number;
}

/** A customer's subscription, in the state its provider last reported (Stripe Billing). */
export interface SubscriptionsTable {
  id: string;
  workspace_id: string;
  customer_id: string;
  /** Null once the product is deleted; `title` keeps its name. */
  product_id: string | null;
  variant_id: string | null;
  title: string;
  /** "stripe". */
  provider: string;
  /** The provider's subscription id (Stripe's `sub_…`); unique per workspace and provider. */
  reference: string;
  checkout_reference: string | null;
  provider_customer: string | null;
  /** Stripe's: incomplete | trialing | active | past_due | unpaid | canceled | incomplete_expired | paused. */
  status: string;
  amount: number;
  currency: string;
  interval: string;
  interval_count: number;
  trial_ends_at: string | null;
  current_period_end: string | null;
  cancel_at_period_end: Generated<number>;
  canceled_at: string | null;
  /** Unix seconds of the provider event (or read) this state is from: an older one never overwrites it. */
  provider_updated_at: number;
  created_at: string;
  updated_at: string;
}

/** Each charge of a subscription (a Stripe invoice, paid or failed), once by the provider's id. */
export interface SubscriptionChargesTable {
  id: string;
  workspace_id: string;
  subscription_id: string;
  reference: string;
  /** The provider's invoice number, when it gave one. */
  number: string | null;
  /** "paid" | "failed". */
  status: string;
  amount: number;
  currency: string;
  hosted_url: string | null;
  pdf_url: string | null;
  occurred_at: string;
}

/** A provider's transfer of the shop's balance to its bank (Stripe's payouts), as last read from the provider. */
export interface PayoutsTable {
  id: string;
  workspace_id: string;
  provider: string;
  /** Stripe's `po_…`; unique per workspace and provider. */
  reference: string;
  /** Stripe's: pending | in_transit | paid | failed | canceled. */
  status: string;
  amount: number;
  currency: string;
  /** When it is (or was) expected in the bank. */
  arrival_date: string;
  /** Why it failed, in the provider's words. */
  detail: string;
  provider_updated_at: number;
  created_at: string;
  updated_at: string;
}

/** A package an order left in (ADR 034): by hand (a carrier and tracking number) or with a label from EasyPost. */
export interface ShipmentsTable {
  id: string;
  workspace_id: string;
  order_id: string;
  /** The order event that marked its lines as sent (the shipping e-mail is that event's). */
  order_event_id: string;
  /** `manual` | `easypost`. */
  provider: string;
  carrier: string;
  service: string;
  tracking_number: string;
  tracking_url: string | null;
  label_url: string | null;
  /** What the label cost the shop, in `label_currency`'s minor units. */
  label_cost: number | null;
  label_currency: string | null;
  weight_grams: number;
  /** SHIPMENT_STATUSES (EasyPost's tracker statuses): a manual shipment starts in_transit. */
  status: string;
  status_detail: string;
  estimated_delivery: string | null;
  delivered_at: string | null;
  /** EasyPost's `shp_…`; unique per workspace and provider. */
  provider_shipment_id: string | null;
  /** EasyPost's `trk_…`, which tracking events name. */
  provider_tracker_id: string | null;
  /** The provider's `updated_at` of the tracking last applied: an older update arriving late changes nothing. */
  provider_updated_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShipmentLinesTable {
  shipment_id: string;
  order_line_id: string;
  quantity: number;
}

/** One tracking step as the carrier reported it, kept once. */
export interface ShipmentEventsTable {
  id: string;
  workspace_id: string;
  shipment_id: string;
  status: string;
  message: string;
  location: string;
  occurred_at: string;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  /** `customer:{id}`, `cart:{id}` or `manage:{tokenId}`: another caller's key never replays this answer. */
  caller: string;
  key: string;
  /** SHA-256 of method, path and body. */
  fingerprint: string;
  /** Null while the first request runs. */
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface CommerceTables {
  commerce_settings: CommerceSettingsTable;
  products: ProductsTable;
  product_variants: ProductVariantsTable;
  product_images: ProductImagesTable;
  collections: CollectionsTable;
  collection_products: CollectionProductsTable;
  coupons: CouponsTable;
  coupon_uses: CouponUsesTable;
  tax_rates: TaxRatesTable;
  shipping_zones: ShippingZonesTable;
  shipping_rates: ShippingRatesTable;
  carts: CartsTable;
  cart_lines: CartLinesTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  stock_reservations: StockReservationsTable;
  order_events: OrderEventsTable;
  payments: PaymentsTable;
  payment_connections: PaymentConnectionsTable;
  invoices: InvoicesTable;
  invoice_counters: InvoiceCountersTable;
  subscriptions: SubscriptionsTable;
  subscription_charges: SubscriptionChargesTable;
  payouts: PayoutsTable;
  shipments: ShipmentsTable;
  shipment_lines: ShipmentLinesTable;
  shipment_events: ShipmentEventsTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type ProductRow = Selectable<ProductsTable>;
export type VariantRow = Selectable<ProductVariantsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type CartRow = Selectable<CartsTable>;
