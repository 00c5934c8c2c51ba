import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A product in a console list: its first photo (or a blank square), its name linking to its editor, a line below. */
export function ProductCell({
  id,
  title,
  thumb,
  children,
}: {
  id: string;
  title: string;
  thumb: string | null;
  /** The line under the name (variants and vendor, a price, a status). */
  children: ReactNode;
}) {
  return (
    <div className="product-cell">
      {thumb ? (
        <img src={thumb} alt="" width={40} height={40} />
      ) : (
        <span className="product-thumb" aria-hidden="true" />
      )}
      <span>
        <Link to={`/shop/products/${id}`} className="customer-name">
          {title}
        </Link>
        <span className="customer-email">{children}</span>
      </span>
    </div>
  );
}
