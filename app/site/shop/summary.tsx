/**
 * A cart's or an order's totals, in the order a shopper checks them: subtotal, discount, delivery, tax (included
 * or added), total. The same component on the cart, the checkout and the order pages, so the numbers read alike.
 */
import { formatMoney } from "~/modules/commerce/money";

export interface SummaryTotals {
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
}

export function TotalsSummary({
  totals,
  currency,
  pricesIncludeTax,
  couponCode,
  taxLabel,
  shippingLabel,
}: {
  totals: SummaryTotals;
  currency: string;
  pricesIncludeTax: boolean;
  couponCode?: string | null;
  /** "VAT 20 %", when a rate applies. */
  taxLabel?: string | null;
  /** Null: not chosen yet. */
  shippingLabel?: string | null;
}) {
  const money = (n: number) => formatMoney(n, currency);
  return (
    <dl className="shop-totals">
      <div>
        <dt>Subtotal</dt>
        <dd>{money(totals.subtotal)}</dd>
      </div>
      {totals.discount > 0 ? (
        <div className="shop-totals__discount">
          <dt>Discount{couponCode ? ` (${couponCode})` : ""}</dt>
          <dd>−{money(totals.discount)}</dd>
        </div>
      ) : null}
      <div>
        <dt>Delivery{shippingLabel ? ` · ${shippingLabel}` : ""}</dt>
        <dd>{shippingLabel === null ? "Chosen at checkout" : money(totals.shipping)}</dd>
      </div>
      {totals.tax > 0 || taxLabel ? (
        <div className="shop-totals__tax">
          <dt>{pricesIncludeTax ? `Including ${taxLabel ?? "tax"}` : (taxLabel ?? "Tax")}</dt>
          <dd>{money(totals.tax)}</dd>
        </div>
      ) : null}
      <div className="shop-totals__total">
        <dt>Total</dt>
        <dd>{money(totals.total)}</dd>
      </div>
    </dl>
  );
}

export const taxLabelOf = (rate: { name: string; rateBp: number } | null) =>
  rate ? `${rate.name} ${(rate.rateBp / 100).toLocaleString("en", { maximumFractionDigits: 2 })} %` : null;
