import type { ColumnDefinitionBuilder, Kysely } from "kysely";

/**
 * Commerce, part 1 (issue 17, ADR 030): the catalogue (products with options and variants, images, collections),
 * carts, prices (coupons, tax rates, shipping zones and rates), orders with their lines, timeline and payments,
 * stock reservations, and the customer API's idempotency keys. Money is an integer in minor units; an order
 * keeps its currency. Every row goes with its workspace.
 *
 * Stock: `product_variants.stock` is what is on hand and `reserved` what open orders hold; an order's
 * reservation rows say how much it holds until when. Both counters change only by guarded updates
 * (`… where stock - reserved >= n`), which is what makes the last item sell once on either dialect.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ws = (c: ColumnDefinitionBuilder) => c.notNull().references("workspaces.id").onDelete("cascade");

  await db.schema
    .createTable("commerce_settings")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
    .addColumn("prices_include_tax", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("tax_shipping", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("bank_transfer", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("bank_instructions", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("pay_on_pickup", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hold_days", "integer", (c) => c.notNull().defaultTo(7))
    .addColumn("cancel_window_hours", "integer", (c) => c.notNull().defaultTo(24))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_html", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("vendor", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("product_type", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("options", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("seo_title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("seo_description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("products_workspace_slug_unique", ["workspace_id", "slug"])
    .execute();
  await db.schema
    .createIndex("products_workspace_status_idx")
    .on("products")
    .columns(["workspace_id", "status", "updated_at"])
    .execute();

  await db.schema
    .createTable("product_variants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("options", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("option_key", "text", (c) => c.notNull())
    .addColumn("sku", "text")
    .addColumn("barcode", "text")
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("compare_at_price", "integer")
    .addColumn("weight_grams", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("inventory_tracked", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("continue_selling", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reserved", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requires_shipping", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("taxable", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("image_id", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("product_variants_option_key_unique", ["product_id", "option_key"])
    .execute();
  await db.schema
    .createIndex("product_variants_workspace_idx")
    .on("product_variants")
    .columns(["workspace_id", "product_id"])
    .execute();

  await db.schema
    .createTable("product_images")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("file_id", "text", (c) => c.notNull().references("files.id").onDelete("cascade"))
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source_url", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("product_images_product_idx")
    .on("product_images")
    .columns(["product_id", "position"])
    .execute();

  await db.schema
    .createTable("collections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("collections_workspace_slug_unique", ["workspace_id", "slug"])
    .execute();

  await db.schema
    .createTable("collection_products")
    .addColumn("workspace_id", "text", ws)
    .addColumn("collection_id", "text", (c) => c.notNull().references("collections.id").onDelete("cascade"))
    .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("collection_products_pk", ["collection_id", "product_id"])
    .execute();
  await db.schema
    .createIndex("collection_products_product_idx")
    .on("collection_products")
    .columns(["product_id"])
    .execute();

  await db.schema
    .createTable("coupons")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("value", "integer", (c) => c.notNull())
    .addColumn("min_subtotal", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text")
    .addColumn("usage_limit", "integer")
    .addColumn("per_customer_limit", "integer")
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("product_ids", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("collection_ids", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("coupons_workspace_code_unique", ["workspace_id", "code"])
    .execute();

  // One row per coupon and buyer (a customer's id, or a guest's e-mail): the per-customer limit is one guarded
  // upsert on it.
  await db.schema
    .createTable("coupon_uses")
    .addColumn("workspace_id", "text", ws)
    .addColumn("coupon_id", "text", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
    .addColumn("buyer", "text", (c) => c.notNull())
    .addColumn("uses", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("coupon_uses_pk", ["coupon_id", "buyer"])
    .execute();

  await db.schema
    .createTable("tax_rates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("region", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("rate_bp", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("tax_rates_place_unique", ["workspace_id", "country", "region"])
    .execute();

  await db.schema
    .createTable("shipping_zones")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("countries", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("shipping_rates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    // Null for local pickup: it needs no address, so it belongs to no zone.
    .addColumn("zone_id", "text", (c) => c.references("shipping_zones.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("min_weight_grams", "integer")
    .addColumn("max_weight_grams", "integer")
    .addColumn("free_over", "integer")
    .addColumn("instructions", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("carts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("coupon_code", "text")
    .addColumn("email", "text")
    .addColumn("name", "text")
    .addColumn("phone", "text")
    .addColumn("address", "text")
    .addColumn("shipping_rate_id", "text")
    .addColumn("payment_method", "text")
    .addColumn("order_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("carts_expires_idx").on("carts").columns(["expires_at"]).execute();

  await db.schema
    .createTable("cart_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    // No foreign key: a line whose product was deleted stays, so the cart can say so instead of losing it.
    .addColumn("variant_id", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("seen_price", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("cart_lines_variant_unique", ["cart_id", "variant_id"])
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("cart_id", "text")
    .addColumn("customer_id", "text", (c) => c.references("customers.id").onDelete("set null"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("address", "text")
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("subtotal", "integer", (c) => c.notNull())
    .addColumn("discount", "integer", (c) => c.notNull())
    .addColumn("shipping", "integer", (c) => c.notNull())
    .addColumn("tax", "integer", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("refunded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("prices_include_tax", "integer", (c) => c.notNull())
    .addColumn("coupon_id", "text")
    .addColumn("coupon_code", "text")
    .addColumn("shipping_method", "text", (c) => c.notNull())
    .addColumn("payment_provider", "text", (c) => c.notNull())
    .addColumn("payment_method", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reserved_until", "text")
    .addColumn("paid_at", "text")
    .addColumn("fulfilled_at", "text")
    .addColumn("cancelled_at", "text")
    .addColumn("cancel_reason", "text")
    .addColumn("erased_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("orders_workspace_number_unique", ["workspace_id", "number"])
    // A cart becomes at most one order: placing it again (a double click, a retry) finds the first.
    .addUniqueConstraint("orders_cart_unique", ["workspace_id", "cart_id"])
    .execute();
  await db.schema
    .createIndex("orders_workspace_created_idx")
    .on("orders")
    .columns(["workspace_id", "created_at"])
    .execute();
  await db.schema.createIndex("orders_customer_idx").on("orders").columns(["customer_id"]).execute();
  await db.schema.createIndex("orders_reserved_idx").on("orders").columns(["status", "reserved_until"]).execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("product_id", "text")
    .addColumn("variant_id", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("variant_title", "text", (c) => c.notNull())
    .addColumn("sku", "text")
    .addColumn("unit_price", "integer", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("discount", "integer", (c) => c.notNull())
    .addColumn("tax", "integer", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("fulfilled_quantity", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("weight_grams", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_lines_order_idx").on("order_lines").columns(["order_id"]).execute();

  await db.schema
    .createTable("stock_reservations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("variant_id", "text", (c) => c.notNull().references("product_variants.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("stock_reservations_order_idx").on("stock_reservations").columns(["order_id"]).execute();

  await db.schema
    .createTable("order_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("order_events_order_idx")
    .on("order_events")
    .columns(["order_id", "created_at"])
    .execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", ws)
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    // A provider's event names its payment or refund: applying it twice finds the first.
    .addUniqueConstraint("payments_reference_unique", ["workspace_id", "provider", "reference"])
    .execute();
  await db.schema
    .createIndex("payments_workspace_created_idx")
    .on("payments")
    .columns(["workspace_id", "created_at"])
    .execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("workspace_id", "text", ws)
    .addColumn("caller", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("status", "integer")
    .addColumn("body", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["workspace_id", "caller", "key"])
    .execute();
  // Which members hear of new orders: null until a member chooses (their role's default, as for the inbox).
  await db.schema.alterTable("member_notifications").addColumn("new_orders", "integer").execute();

  await db.schema.createIndex("idempotency_keys_created_idx").on("idempotency_keys").columns(["created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("member_notifications").dropColumn("new_orders").execute();
  for (const table of [
    "idempotency_keys",
    "payments",
    "order_events",
    "stock_reservations",
    "order_lines",
    "orders",
    "cart_lines",
    "carts",
    "shipping_rates",
    "shipping_zones",
    "tax_rates",
    "coupon_uses",
    "coupons",
    "collection_products",
    "collections",
    "product_images",
    "product_variants",
    "products",
    "commerce_settings",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
