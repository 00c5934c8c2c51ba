/**
 * The shop's API bodies (ADR 030), as zod schemas: what `/api/v1/cart/validate`, `/api/v1/orders` and
 * `/api/editor/shop` take and answer, for their routes and the API reference. Plain data, no server imports.
 * Amounts are integers in minor units of `currency` (ISO 4217).
 */
import { z } from "zod";

export const CartValidateInput = z.object({
  lines: z
    .array(
      z.object({
        variantId: z.string().min(1).max(64),
        quantity: z.number().int("A quantity is a whole number").min(1).max(999),
        /** What the storefront shows as the unit price: compared with the server's, never used. */
        price: z.number().int().min(0).optional(),
      }),
    )
    .max(100, "A cart holds at most 100 different items"),
  couponCode: z.string().trim().max(40).nullish(),
  address: z
    .object({
      country: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, "A country is its ISO 3166-1 alpha-2 code"),
      region: z.string().trim().max(40).nullish(),
    })
    .nullish(),
  shippingRateId: z.string().max(64).nullish(),
  /** The total the storefront shows: compared with the server's, so a stale or tampered total is named. */
  total: z.number().int().min(0).optional(),
});

const Problem = z.object({
  code: z.string(),
  message: z.string(),
  blocking: z.boolean(),
  variantId: z.string().optional(),
  field: z.string().optional(),
  previousPrice: z.number().int().optional(),
  price: z.number().int().optional(),
  available: z.number().int().optional(),
});

const Totals = z.object({
  subtotal: z.number().int(),
  discount: z.number().int(),
  shipping: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
});

export const CartValidateOutput = z.object({
  currency: z.string(),
  pricesIncludeTax: z.boolean(),
  lines: z.array(
    z.object({
      variantId: z.string(),
      productId: z.string(),
      title: z.string(),
      variantTitle: z.string(),
      unitPrice: z.number().int(),
      quantity: z.number().int(),
      subtotal: z.number().int(),
      discount: z.number().int(),
      total: z.number().int(),
      tax: z.number().int(),
      available: z.number().int().nullable(),
    }),
  ),
  totals: Totals,
  coupon: z.object({ code: z.string() }).nullable(),
  tax: z.object({ name: z.string(), rateBp: z.number().int() }).nullable(),
  shippingRates: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), amount: z.number().int() })),
  shippingRateId: z.string().nullable(),
  problems: z.array(Problem),
  ready: z.boolean(),
});

const Address = z.object({
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  postalCode: z.string(),
  region: z.string(),
  country: z.string(),
});

export const OrderOutput = Totals.extend({
  id: z.string(),
  number: z.number().int(),
  status: z.enum(["pending", "paid", "partially_fulfilled", "fulfilled", "completed", "cancelled", "refunded"]),
  currency: z.string(),
  refunded: z.number().int(),
  pricesIncludeTax: z.boolean(),
  couponCode: z.string().nullable(),
  shippingMethod: z.string(),
  paymentMethod: z.string(),
  email: z.string(),
  name: z.string(),
  address: Address.nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});

export const OrderDetailOutput = OrderOutput.extend({
  lines: z.array(
    z.object({
      variantId: z.string().nullable(),
      title: z.string(),
      variantTitle: z.string(),
      sku: z.string().nullable(),
      unitPrice: z.number().int(),
      quantity: z.number().int(),
      discount: z.number().int(),
      tax: z.number().int(),
      total: z.number().int(),
      fulfilledQuantity: z.number().int(),
    }),
  ),
  payment: z
    .object({ kind: z.string(), title: z.string().optional(), text: z.string().optional(), url: z.string().optional() })
    .nullable(),
  canCancel: z.boolean(),
  /** The packages it left in (ADR 034), oldest first, with how to follow each. */
  shipments: z.array(
    z.object({
      id: z.string(),
      carrier: z.string(),
      service: z.string(),
      trackingNumber: z.string(),
      trackingUrl: z.string().nullable(),
      status: z.string(),
      statusLabel: z.string(),
      estimatedDelivery: z.string().nullable(),
      deliveredAt: z.string().nullable(),
      createdAt: z.string(),
      lines: z.array(z.object({ title: z.string(), quantity: z.number().int() })),
      steps: z.array(
        z.object({ status: z.string(), message: z.string(), location: z.string(), occurredAt: z.string() }),
      ),
    }),
  ),
});

export const OrderListOutput = z.object({
  orders: z.array(OrderOutput),
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
});

export const BillingOverviewOutput = z.object({
  invoices: z.array(
    z.object({
      number: z.number().int(),
      issuedAt: z.string(),
      orderId: z.string(),
      orderNumber: z.number().int(),
      currency: z.string(),
      total: z.number().int().describe("Minor units of the order's currency"),
      refunded: z.number().int(),
      pdf: z.string().describe("The invoice's PDF, on the site (the customer's session cookie or bearer token)"),
    }),
  ),
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
  subscriptions: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: z
          .string()
          .describe("Stripe's: trialing, active, past_due, unpaid, incomplete, paused, canceled or incomplete_expired"),
        amount: z.number().int().describe("Charged each period, in minor units of `currency`"),
        currency: z.string(),
        interval: z.enum(["week", "month", "year"]),
        intervalCount: z.number().int(),
        trialEndsAt: z.string().nullable(),
        currentPeriodEnd: z.string().nullable().describe("When it is next charged, or ends if cancelAtPeriodEnd"),
        cancelAtPeriodEnd: z.boolean(),
        endedAt: z.string().nullable(),
        charges: z.array(
          z.object({
            status: z.enum(["paid", "failed"]),
            amount: z.number().int(),
            currency: z.string(),
            number: z.string().nullable(),
            at: z.string(),
            invoiceUrl: z.string().nullable().describe("Stripe's invoice (its PDF, or its page to pay a failed one)"),
          }),
        ),
      }),
    )
    .describe("All of the customer's subscriptions, running ones first (not paged), each with its latest charges"),
});

export const ReorderOutput = z.object({
  lines: z.array(z.object({ variantId: z.string(), quantity: z.number().int() })),
  validation: CartValidateOutput,
});

export const ShopSetupOutput = z.object({
  ready: z.boolean(),
  readiness: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      done: z.boolean(),
      href: z.string(),
      action: z.string(),
    }),
  ),
  products: z.object({ active: z.number().int(), draft: z.number().int(), archived: z.number().int() }),
});

/**
 * `POST /api/v1/checkout/paypal/status` (ADR 035) takes two bodies: a storefront's, after PayPal sent the
 * customer back (the order and the PayPal order id PayPal added to the return address as `token`), and PayPal's
 * own shipping callback (sent to the address Atrium gave PayPal, which carries a token sealed to the order).
 */
export const PayPalStatusInput = z.object({
  orderId: z.string().min(1).max(64),
  paypalOrderId: z.string().min(1).max(64),
});
export const PayPalShippingCallbackInput = z.object({
  id: z.string().min(1).max(64),
  shipping_address: z.object({
    country_code: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .transform((v) => v.toUpperCase()),
    admin_area_1: z.string().max(300).optional(),
    admin_area_2: z.string().max(120).optional(),
    postal_code: z.string().max(60).optional(),
  }),
  shipping_option: z
    .object({ id: z.string().max(127) })
    .passthrough()
    .optional(),
});

export const PayPalStatusOutput = z.object({
  orderId: z.string(),
  /** The order's status now (`paid` once the payment is applied). */
  status: z.string(),
  /**
   * What PayPal's side is: `paid` (captured and applied now or before), `awaiting_approval` (the customer has not
   * approved on PayPal's page: `approveUrl` opens it again), `capture_pending` (captured, not yet cleared),
   * `not_captured` (the order was released before approval, so nothing was taken), `refunded` (the payment came
   * after the order was released, or was a second one, and was given back at once).
   */
  payment: z.enum(["paid", "awaiting_approval", "capture_pending", "not_captured", "refunded"]),
  approveUrl: z.string().nullable(),
});
