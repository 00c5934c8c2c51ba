/**
 * Prices as a shopper reads them: the currency's own format, a struck-through compare-at price with what it
 * was said in words (screen readers do not announce strikethrough), "from" when variants differ.
 */
import { formatMoney } from "~/modules/commerce/money";

export function Price({
  amount,
  compareAt,
  currency,
  from = false,
}: {
  amount: number;
  compareAt?: number | null;
  currency: string;
  from?: boolean;
}) {
  const onSale = compareAt !== null && compareAt !== undefined && compareAt > amount;
  return (
    <span className="shop-price">
      {from ? <span className="shop-price__from">From </span> : null}
      <span className={onSale ? "shop-price__now shop-price__now--sale" : "shop-price__now"}>
        {onSale ? <span className="visually-hidden">Sale price </span> : null}
        {formatMoney(amount, currency)}
      </span>
      {onSale ? (
        <s className="shop-price__was">
          <span className="visually-hidden">Regular price </span>
          {formatMoney(compareAt, currency)}
        </s>
      ) : null}
    </span>
  );
}

export const STOCK_LABELS = {
  in_stock: "In stock",
  low: "Only a few left",
  sold_out: "Sold out",
  backorder: "Available to order",
} as const;
