/**
 * Products on sale for the content index (ADR 037): title, description, price (from the cheapest variant), the
 * variants' names and whether they are in stock, as the product page shows them. Active products only.
 */
import { cacheTags } from "~/modules/cache/tags";
import type { SearchSource } from "~/modules/search/index.server";
import { plainText } from "~/modules/search/text";
import { rememberedProfile } from "~/modules/sites/profile.server";
import { productsOf } from "./catalogue.server";
import { formatMoney } from "./money";
import { stockState } from "./storefront.server";

/** Read in pages, so a large catalogue is not one statement with thousands of bound ids. */
const PAGE = 500;

export const productsSearchSource: SearchSource = {
  kinds: ["product"],
  async documents(services, workspaceId) {
    const products = productsOf(services.db, workspaceId);
    const { currency } = await rememberedProfile(services, workspaceId);
    const found = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await products.storefront({ offset, size: PAGE });
      found.push(...page);
      if (page.length < PAGE) break;
    }
    return {
      documents: found.map((product) => {
        const prices = product.variants.map((v) => v.price);
        const cheapest = prices.length ? Math.min(...prices) : null;
        const soldOut = product.variants.length > 0 && product.variants.every((v) => stockState(v) === "sold_out");
        const price =
          cheapest === null
            ? ""
            : `${new Set(prices).size > 1 ? "From " : ""}${formatMoney(cheapest, currency)}${product.subscription ? " per period" : ""}.`;
        const variants =
          product.variants.length > 1 ? `Comes as: ${product.variants.map((v) => v.title).join(", ")}.` : "";
        return {
          id: `product:${product.id}`,
          kind: "product" as const,
          title: product.title,
          text: [plainText(product.description), `${product.title}: ${price}`, variants, soldOut ? "Sold out." : ""]
            .filter(Boolean)
            .join("\n"),
          keywords: [product.productType, product.vendor, ...product.tags, "buy shop price"].join(" "),
          path: `/shop/${product.slug}`,
        };
      }),
      tags: [cacheTags.shop(workspaceId), cacheTags.settings(workspaceId)],
    };
  },
};
