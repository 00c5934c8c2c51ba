/**
 * The shop's "done when" (issue 17), in Chromium: an operator imports products with variants and images from a
 * Shopify CSV (the images fetched from a local image server), turns on bank transfer and pay on pickup, sets
 * delivery, VAT and a coupon; a guest buys with the coupon and gets a confirmation; a signed-in customer buys
 * and finds the order in their portal; the operator marks an order paid, sends it, and cancels another. Then
 * card payments (issue 18): the operator connects Stripe (a local Stripe the official SDK talks to), a guest pays
 * on its hosted page and comes back to a paid order, and the operator refunds part of it through Stripe; a product
 * sold as a subscription is subscribed to by a customer on Stripe's page and cancelled at its period's end; the
 * operator connects PayPal (a local one the official SDK reaches over HTTPS), a guest pays on its approval page and
 * the operator refunds part of it through PayPal; the
 * operator connects EasyPost (a local one the official client talks to), buys the card order's label, and the guest
 * follows the parcel from the shipping e-mail's link to delivered. Every
 * new page passes axe at 1280 and 390 pixels wide; with SHOTS_DIR set, each is photographed at both.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, openBrowser, signUpWithWorkspace } from "../helpers/browser";
import { drainJobs } from "../helpers/jobs";
import { linkIn, mailedText, uniqueEmail } from "../helpers/client";
import { codeMailTo } from "../helpers/customers";
import { tempDir, type TempDir } from "../helpers/temp";
import { startFakeEasyPost } from "../fakes/easypost";
import { startFakePayPal } from "../fakes/paypal";
import { startFakeStripe } from "../fakes/stripe";
import { demoAssetsDir } from "~/modules/files/demo.server";
import { profileInputOf, profileOf } from "~/modules/sites/profile.server";

const stripe = await startFakeStripe();
const easypost = await startFakeEasyPost();
const paypal = await startFakePayPal();
const suite = browserSuite({
  bypassCSP: true,
  env: {
    OUTBOUND_ALLOW_PRIVATE: "1",
    STRIPE_API_URL: stripe.url,
    EASYPOST_API_URL: easypost.url,
    PAYPAL_API_ADDRESS: paypal.address,
    PAYPAL_API_CA: paypal.caFile,
  },
});
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 860 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR;
const SLUG = "rye-and-crumb";

let operator: Page;
let images: Server;
let csvPath: string;
let folder: TempDir;

/** axe at both widths (and the screenshots for review), on the page as it is now. */
async function check(page: Page, name: string) {
  const url = page.url();
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(url);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `shop-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

/** As `check`, for a page that is the answer to a form (reloading it would lose that answer): resized, not reloaded. */
async function look(page: Page, name: string) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    expect(await seriousViolations(page, AXE), `${name} (${width})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `shop-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

/** A guest buys cinnamon buns, delivered to Whitby by Royal Mail 48, paying with `payWith`: sent to its page. */
async function buyBunsAsGuest(
  page: Page,
  guest: { name: string; street: string; postalCode: string; payWith: RegExp },
): Promise<void> {
  await page.goto(`${suite.server.url}/${SLUG}/shop/cinnamon-buns`);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByRole("link", { name: "Check out" }).click();
  await page.getByLabel("E-mail").fill(uniqueEmail("guest"));
  await page.getByLabel("Full name").fill(guest.name);
  await page.getByLabel("Street and number").fill(guest.street);
  await page.getByLabel("Postal code").fill(guest.postalCode);
  await page.getByLabel("Town or city").fill("Whitby");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/Royal Mail 48/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(guest.payWith).check();
  await page.getByRole("button", { name: /Place order/ }).click();
}

beforeAll(async () => {
  const photos = { "/rye.jpg": "loaves.jpg", "/buns.jpg": "pastries.jpg" } as Record<string, string>;
  images = createServer((req, res) => {
    const file = photos[req.url ?? ""];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg" }).end(readFileSync(join(demoAssetsDir(), file)));
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  folder = tempDir("atrium-shop");
  csvPath = join(folder.path, "products_export.csv");
  writeFileSync(
    csvPath,
    [
      "Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Price,Variant Compare At Price,Variant Requires Shipping,Variant Taxable,Image Src,Image Position,Image Alt Text,Status",
      `rye-loaf,Dark rye loaf,"<p>Whole rye, <strong>three days</strong> of sourdough.</p>",Rye & Crumb,Bread,bread,TRUE,Size,Half,RYE-H,500,shopify,8,deny,3.50,,TRUE,TRUE,${base}/rye.jpg,1,A dark rye loaf on a board,active`,
      `rye-loaf,,,,,,,,Whole,RYE-W,1000,shopify,1,deny,6.00,6.50,TRUE,TRUE,,,,`,
      `cinnamon-buns,Cinnamon buns,<p>Cardamom and cinnamon.</p>,Rye & Crumb,Pastry,pastry,TRUE,Title,Default Title,BUN-4,300,shopify,12,deny,5.00,,TRUE,TRUE,${base}/buns.jpg,1,Four cinnamon buns,active`,
    ].join("\n"),
  );
  operator = await suite.context.newPage();
  operator.on("dialog", (dialog) => void dialog.accept());
  await signUpWithWorkspace(operator, suite.server, {
    email: uniqueEmail("owner"),
    password: "a long enough password",
    name: "Rye & Crumb",
    slug: SLUG,
  });
});
afterAll(async () => {
  await new Promise((resolve) => images?.close(resolve));
  await stripe.close();
  await easypost.close();
  await paypal.close();
  folder?.remove();
});

describe("the shop", () => {
  it("is set up by its operator: products imported with their images, payments, delivery, VAT and a coupon", async () => {
    const url = suite.server.url;
    await operator.goto(`${url}/shop`);
    await operator.getByRole("heading", { name: "Ready to sell: 0 of 5" }).waitFor();
    await check(operator, "console-empty");

    await operator.getByRole("link", { name: "Import CSV" }).click();
    await operator.getByLabel("CSV file").setInputFiles(csvPath);
    await operator.getByRole("button", { name: "Import" }).click();
    await operator.getByText("Imported 2 products (2 new, 0 updated). 2 images are being fetched.").waitFor();
    await drainJobs(suite.server);
    await operator.goto(`${url}/shop/import`);
    await check(operator, "console-import");

    await operator.goto(`${url}/settings/integrations/payments`);
    await operator.getByLabel("pay by bank transfer").check();
    await operator.getByLabel("pay when they collect their order").check();
    await operator.getByLabel("Bank transfer instructions").fill("Rye & Crumb Ltd\nIBAN GB12 RYEC 0000 1111 2222 33");
    await operator.getByRole("button", { name: "Save" }).click();
    await operator.getByText("Payment settings saved.").waitFor();
    await check(operator, "console-payments-settings");

    await operator.goto(`${url}/shipping/rates`);
    await check(operator, "console-delivery-empty");
    await operator.getByRole("textbox", { name: "Name" }).first().fill("United Kingdom");
    await operator.getByLabel("Countries").selectOption(["GB"]);
    await operator.getByRole("button", { name: "Add zone" }).click();
    await operator.getByText("Zone added. Now give it a rate.").waitFor();
    const zone = operator.getByRole("region", { name: "United Kingdom" });
    await zone.getByRole("textbox", { name: "Name" }).fill("Royal Mail 48");
    await zone.getByRole("textbox", { name: "Price (USD)" }).fill("3.95");
    await zone.getByRole("button", { name: "Add rate" }).click();
    await operator.getByText("Rate added.").waitFor();
    await operator.getByRole("button", { name: "Add pickup" }).click();
    await operator.getByText("Pickup added").waitFor();
    await check(operator, "console-delivery");

    await operator.goto(`${url}/shop/taxes`);
    await operator.getByLabel("Country").selectOption("GB");
    await operator.getByLabel("Rate (%)").fill("20");
    await operator.getByRole("button", { name: "Save rate" }).click();
    await operator.getByText("Rate saved.").waitFor();
    await check(operator, "console-taxes");

    await operator.goto(`${url}/shop/coupons`);
    await operator.getByLabel("Code").fill("welcome10");
    await operator.getByLabel("Value").fill("10");
    await operator.getByRole("button", { name: "Create coupon" }).click();
    await operator.getByText("Coupon WELCOME10 created").waitFor();
    await check(operator, "console-coupons");

    // A collection, its products in the order the operator chooses, and the shop showing that order.
    await operator.goto(`${url}/shop/collections`);
    await operator.getByText("No collections yet.").waitFor();
    await check(operator, "console-collections-empty");
    await operator.getByLabel("Name").fill("Weekend bakes");
    await operator.getByRole("button", { name: "Create collection" }).click();
    await operator.getByText("Collection created. Now add its products.").waitFor();
    await check(operator, "console-collection-empty");
    for (const title of ["Dark rye loaf", "Cinnamon buns"]) {
      await operator.getByLabel("Add a product").selectOption({ label: title });
      await operator.getByRole("button", { name: "Add", exact: true }).click();
      await operator.getByText("Product added at the end.").waitFor();
    }
    await operator.getByRole("button", { name: "Move Cinnamon buns to top" }).click();
    await operator.getByText("Order saved.").waitFor();
    await check(operator, "console-collection");
    const shelf = await suite.context.newPage();
    await shelf.goto(`${url}/${SLUG}/shop?collection=weekend-bakes`);
    await expect(shelf.locator(".shop-card__title").allTextContents()).resolves.toEqual([
      "Cinnamon buns",
      "Dark rye loaf",
    ]);
    await shelf.close();
    await operator.goto(`${url}/shop/collections`);
    await check(operator, "console-collections");

    await operator.goto(`${url}/shop`);
    await operator.getByRole("link", { name: "Dark rye loaf" }).click();
    await operator.getByRole("heading", { name: "Dark rye loaf" }).waitFor();
    await expect(operator.getByRole("img", { name: "A dark rye loaf on a board" }).count()).resolves.toBe(1);
    await check(operator, "console-product");
  });

  it("sells to a guest: product page, cart with a coupon, checkout, confirmation", async () => {
    const url = suite.server.url;
    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      const email = uniqueEmail("guest");
      await page.goto(`${url}/${SLUG}`);
      await page.getByRole("link", { name: "Cart" }).waitFor();
      await page.goto(`${url}/${SLUG}/shop`);
      await check(page, "storefront");
      await page.getByRole("link", { name: /Dark rye loaf/ }).click();
      await check(page, "product");
      await page.getByLabel(/Whole/).check();
      await page.getByRole("button", { name: "Add to cart" }).click();
      await page.getByRole("heading", { name: "Your cart" }).waitFor();
      await page.getByLabel("Discount code").fill("WELCOME10");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByText("Code WELCOME10 applied.").waitFor();
      await check(page, "cart");
      await page.getByRole("link", { name: "Check out" }).click();
      await check(page, "checkout-details");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Full name").fill("Grace Guest");
      await page.getByLabel("Street and number").fill("3 Church Street");
      await page.getByLabel("Postal code").fill("YO22 4AE");
      await page.getByLabel("Town or city").fill("Whitby");
      await page.getByLabel("Country").selectOption("GB");
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByLabel(/Royal Mail 48/).check();
      await check(page, "checkout-delivery");
      await page.getByRole("button", { name: "Continue" }).click();
      // 6.00 − 10 % + 3.95 delivery: the button says what is placed.
      await page.getByRole("button", { name: "Place order · $9.35" }).waitFor();
      await check(page, "checkout-payment");
      await page.getByRole("button", { name: "Place order · $9.35" }).click();
      await page.getByText("Thank you! Your order is placed.").waitFor();
      await page.getByText("IBAN GB12 RYEC 0000 1111 2222 33").waitFor();
      await check(page, "order-guest");
      await drainJobs(suite.server);
      const mail = suite.server.logs.findLast((l) => l.to === email && String(l.msg).includes("Total:"));
      expect(String(mail?.msg)).toContain("Total: $9.35");
    } finally {
      await browser.close();
    }
  });

  it("sells to a signed-in customer, who finds the order in their portal", async () => {
    const url = suite.server.url;
    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      const email = uniqueEmail("ada");
      await page.goto(`${url}/${SLUG}/login`);
      await page.getByRole("textbox", { name: "E-mail address" }).fill(email);
      await page.getByRole("button", { name: "E-mail me a code" }).click();
      await page.getByLabel("Code").fill(codeMailTo(url, email).code);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Your account" }).waitFor();

      await page.goto(`${url}/${SLUG}/shop/cinnamon-buns`);
      await page.getByLabel("Quantity").fill("2");
      await page.getByRole("button", { name: "Add to cart" }).click();
      await page.getByRole("link", { name: "Check out" }).click();
      await expect(page.getByLabel("E-mail").inputValue()).resolves.toBe(email);
      await page.getByLabel("Full name").fill("Ada Lovelace");
      await page.getByLabel("I will collect it").check();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByLabel("Pay on pickup").check();
      await page.getByRole("button", { name: /Place order/ }).click();
      await page.getByText("Thank you! Your order is placed.").waitFor();
      await check(page, "order-customer");

      await page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Orders" }).click();
      await page.getByRole("list", { name: "Your orders" }).getByText("Awaiting payment").waitFor();
      await check(page, "portal-orders");
    } finally {
      await browser.close();
    }
  });

  it("lets the operator mark an order paid, send it, and cancel another", async () => {
    const url = suite.server.url;
    await operator.goto(`${url}/shop/orders`);
    await check(operator, "console-orders");
    // The guest's order (the older one, listed second) is paid by transfer, then sent.
    await operator.getByRole("link", { name: "#1001" }).click();
    await operator.getByRole("button", { name: /Mark as paid/ }).click();
    await operator.getByText("Marked as paid.").waitFor();
    await operator.getByRole("button", { name: "Mark as sent" }).click();
    await operator.getByText("Marked as sent.").waitFor();
    await expect(operator.getByText("Sent", { exact: true }).first().isVisible()).resolves.toBe(true);
    await check(operator, "console-order");

    // The customer's pickup order is cancelled: its buns go back on sale.
    await operator.goto(`${url}/shop/orders/${(await orderIdOf(1002))!}`);
    await operator.getByText("Cancel order", { exact: true }).click();
    await operator.getByRole("button", { name: "Cancel order #1002" }).click();
    await operator.getByText("Order cancelled.").waitFor();
    const buns = await suite.server.db
      .selectFrom("product_variants")
      .select(["stock", "reserved"])
      .where("sku", "=", "BUN-4")
      .executeTakeFirstOrThrow();
    expect(buns).toEqual({ stock: 12, reserved: 0 });
    const rye = await suite.server.db
      .selectFrom("product_variants")
      .select(["stock", "reserved"])
      .where("sku", "=", "RYE-W")
      .executeTakeFirstOrThrow();
    expect(rye).toEqual({ stock: 0, reserved: 0 });

    await operator.goto(`${url}/shop/payments`);
    await operator.getByRole("cell", { name: "$9.35" }).waitFor();
    await check(operator, "console-payments");
  });

  it("takes a card payment through Stripe, and refunds part of it", async () => {
    const url = suite.server.url;
    const key = stripe.addAccount("Rye & Crumb Ltd");
    await operator.goto(`${url}/settings/integrations/payments`);
    await check(operator, "settings-payments");
    await operator.getByLabel("Secret key").fill(key);
    await operator.getByRole("button", { name: "Connect Stripe" }).click();
    await operator.getByText("Stripe is connected.").waitFor();
    await operator.getByText("Rye & Crumb Ltd", { exact: true }).waitFor();
    await check(operator, "settings-payments-stripe");

    const browser = await openBrowser({ bypassCSP: true });
    let orderId: string;
    try {
      const page = await browser.context.newPage();
      await buyBunsAsGuest(page, {
        name: "Cora Card",
        street: "3 Church Street",
        postalCode: "YO22 4AE",
        payWith: /Card/,
      });
      // Stripe's hosted page (the local one), then back to the order, paid.
      await page.waitForURL(`${stripe.url}/pay/**`);
      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL(`${url}/${SLUG}/orders/**`);
      await page.locator(".portal-status", { hasText: "Paid" }).waitFor();
      orderId = new URL(page.url()).pathname.split("/").pop()!;
      await check(page, "order-card-paid");
    } finally {
      await browser.close();
    }

    await operator.goto(`${url}/shop/orders/${orderId}`);
    await operator.getByText("Refund", { exact: true }).click();
    await operator.getByLabel(/Amount/).fill("1.00");
    await operator.getByRole("button", { name: "Refund through Stripe" }).click();
    await operator.getByText("Refund recorded.").waitFor();
    await check(operator, "console-order-card-refunded");
    expect(stripe.accountOf(key).refunds.map((r) => r.amount)).toEqual([100]);
    const payments = await suite.server.db
      .selectFrom("payments")
      .select(["provider", "kind", "amount"])
      .where("order_id", "=", orderId)
      .orderBy("created_at")
      .execute();
    expect(payments).toEqual([
      { provider: "stripe", kind: "payment", amount: payments[0]!.amount },
      { provider: "stripe", kind: "refund", amount: 100 },
    ]);

    // Stripe pays the balance out to the bank: listed above the payments.
    const payout = stripe.payout(key, { amount: payments[0]!.amount - 100 });
    stripe.payout(key, { id: payout.id, status: "paid" });
    await expect
      .poll(async () => (await suite.server.db.selectFrom("payouts").select("status").execute()).map((p) => p.status))
      .toEqual(["paid"]);
    await operator.goto(`${url}/shop/payments`);
    await operator.getByRole("region", { name: "Payouts" }).getByText("Paid out").waitFor();
    await check(operator, "console-payments-payouts");
  });
});

describe("PayPal", () => {
  it("is connected by the operator; a guest pays on PayPal's page, and the operator refunds part of it", async () => {
    const url = suite.server.url;
    const { id: workspaceId } = await suite.server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", SLUG)
      .executeTakeFirstOrThrow();
    const app = paypal.addApp("Rye & Crumb");
    const webhookId = paypal.addWebhook(app.clientId, `${url}/api/webhooks/payments?workspace=${workspaceId}`);
    await operator.goto(`${url}/settings/integrations/payments`);
    const section = operator.getByRole("region", { name: "PayPal" });
    await section.getByLabel(/Sandbox/).check();
    await section.getByLabel("Client ID").fill(app.clientId);
    await section.getByLabel("Secret").fill(app.clientSecret);
    await section.getByLabel("Webhook ID").fill(webhookId);
    await section.getByRole("button", { name: "Connect PayPal" }).click();
    await operator.getByText("PayPal is connected.").waitFor();
    await look(operator, "settings-payments-paypal");

    const browser = await openBrowser({ bypassCSP: true });
    let orderId: string;
    try {
      const page = await browser.context.newPage();
      await buyBunsAsGuest(page, {
        name: "Pia Paypal",
        street: "9 Harbour Road",
        postalCode: "YO21 3PU",
        payWith: /PayPal/,
      });
      // PayPal's approval page (the local one), then back to the order: captured and paid.
      await page.waitForURL(`${paypal.approvalUrl}/checkoutnow**`);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, "shop-paypal-approval-wide.png"), fullPage: true });
      await page.getByRole("button", { name: "Pay now" }).click();
      await page.waitForURL(`${url}/${SLUG}/orders/**`);
      await page.locator(".portal-status", { hasText: "Paid" }).waitFor();
      orderId = new URL(page.url()).pathname.split("/").pop()!;
      await check(page, "order-paypal-paid");
    } finally {
      await browser.close();
    }

    await operator.goto(`${url}/shop/orders/${orderId}`);
    await operator.getByText("Paid through PayPal").waitFor();
    await operator.getByText("Refund", { exact: true }).click();
    await operator.getByLabel(/Amount/).fill("2.00");
    await operator.getByRole("button", { name: "Refund through PayPal" }).click();
    await operator.getByText("Refund recorded.").waitFor();
    await check(operator, "console-order-paypal-refunded");
    await paypal.idle();
    const payments = await suite.server.db
      .selectFrom("payments")
      .select(["provider", "kind", "amount"])
      .where("order_id", "=", orderId)
      .orderBy("created_at")
      .execute();
    expect(payments).toEqual([
      { provider: "paypal", kind: "payment", amount: payments[0]!.amount },
      { provider: "paypal", kind: "refund", amount: 200 },
    ]);
    await operator.goto(`${url}/shop/payments`);
    await operator.getByRole("cell", { name: "PayPal" }).first().waitFor();
  });
});

describe("subscriptions", () => {
  it("sells a product as a subscription; a customer subscribes on Stripe's page, then cancels at the period's end", async () => {
    const url = suite.server.url;
    await operator.goto(`${url}/shop/products/new`);
    await operator.getByLabel("Name").fill("Bread club");
    await operator.getByLabel("Price", { exact: true }).fill("18.00");
    await operator.getByRole("spinbutton", { name: "Stock" }).fill("50");
    await operator.getByLabel("Status").selectOption("active");
    await operator.getByLabel("As a subscription").check();
    await operator.getByLabel("Period").selectOption("month");
    await operator.getByLabel("Free trial (days)").fill("14");
    await operator.getByRole("button", { name: "Create product" }).click();
    await operator.getByText("Product created.").waitFor();
    await check(operator, "product-subscription");

    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      await page.goto(`${url}/${SLUG}/shop/bread-club`);
      await page.getByText("14-day free trial, then charged every month.").waitFor();
      await check(page, "product-subscribe");
      await page.getByRole("button", { name: "Subscribe" }).click();
      // Signing in first, then back to the plan.
      const email = uniqueEmail("club");
      await page.getByRole("textbox", { name: "E-mail address" }).fill(email);
      await page.getByRole("button", { name: "E-mail me a code" }).click();
      await page.getByLabel("Code").fill(codeMailTo(url, email).code);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Subscribe to Bread club" }).waitFor();
      await page.getByText("$18.00 / month").first().waitFor();
      await check(page, "billing-offer");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.waitForURL(`${stripe.url}/pay/**`);
      await page.getByText("14 days free, then 18.00 USD per month").waitFor();
      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL(`${url}/${SLUG}/billing?notice=subscribed`);
      await page.getByText("You are subscribed.").waitFor();
      await page.locator(".billing-status", { hasText: "Free trial" }).waitFor();
      await check(page, "billing-subscribed");

      // Cancelling asks first, then ends at the period's end; it can be taken back.
      await page.getByRole("link", { name: "Cancel subscription" }).click();
      await page.getByText("Cancel Bread club?").waitFor();
      await check(page, "billing-cancel-confirm");
      await page.getByRole("button", { name: "Cancel subscription" }).click();
      await page.getByText("Your subscription is cancelled").waitFor();
      await page.getByRole("button", { name: "Keep my subscription" }).waitFor();
      await check(page, "billing-cancelled");
      const subscription = await suite.server.db
        .selectFrom("subscriptions")
        .select(["reference", "cancel_at_period_end"])
        .executeTakeFirstOrThrow();
      expect(subscription.cancel_at_period_end).toBe(1);
      expect(stripe.subscription(subscription.reference).cancel_at_period_end).toBe(true);
    } finally {
      await browser.close();
    }

    await operator.goto(`${url}/shop/subscriptions`);
    await operator.getByRole("cell", { name: /Bread club/ }).waitFor();
    await check(operator, "console-subscriptions");
  });
});

describe("shipping", () => {
  it("buys a label through EasyPost for the card order; its guest follows the parcel from the e-mail to delivered", async () => {
    const url = suite.server.url;
    const { id: workspaceId } = await suite.server.db
      .selectFrom("workspaces")
      .select("id")
      .where("slug", "=", SLUG)
      .executeTakeFirstOrThrow();
    const profile = profileOf(suite.server.db, workspaceId);
    await profile.save(null, {
      ...profileInputOf(await profile.get()),
      address: { street: "12 Bridge Street", locality: "Whitby", region: "", postalCode: "YO21 1DD", country: "GB" },
    });

    await operator.goto(`${url}/settings/integrations/shipping`);
    await check(operator, "settings-shipping");
    await operator.getByLabel("API key").fill(easypost.addAccount("Rye & Crumb Ltd"));
    await operator.getByRole("button", { name: "Connect EasyPost" }).click();
    await operator.getByText("EasyPost is connected.").waitFor();
    await check(operator, "settings-shipping-easypost");

    await operator.goto(`${url}/shipping`);
    await operator.getByRole("region", { name: "Orders waiting to be sent" }).waitFor();
    await check(operator, "console-shipping-waiting");
    const card = await suite.server.db
      .selectFrom("orders")
      .select(["id", "email"])
      .where("payment_provider", "=", "stripe")
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    await operator.goto(`${url}/shop/orders/${card.id}`);
    await operator.getByLabel("Weight (kg)").fill("0.6");
    await operator.getByRole("button", { name: "Get rates" }).click();
    await operator.getByRole("group", { name: /Choose a rate/ }).waitFor();
    await look(operator, "console-order-label-rates");
    await operator.getByLabel(/Priority/).check();
    await operator.getByRole("button", { name: "Buy label and mark as sent" }).click();
    await operator.getByText("Label bought and the order marked as sent.").waitFor();
    const shipment = await suite.server.db
      .selectFrom("shipments")
      .select(["tracking_number", "service"])
      .where("order_id", "=", card.id)
      .executeTakeFirstOrThrow();
    expect(shipment.service).toBe("Priority");

    await easypost.track(shipment.tracking_number, "in_transit", { message: "Departed facility", city: "Leeds" });
    await easypost.track(shipment.tracking_number, "delivered", { message: "Delivered, handed to resident" });
    await operator.goto(`${url}/shop/orders/${card.id}`);
    await operator.getByText("Delivered, handed to resident").waitFor();
    await check(operator, "console-order-package");
    await operator.goto(`${url}/shipping`);
    await operator.getByRole("region", { name: "Packages" }).getByText("Delivered", { exact: true }).waitFor();
    await check(operator, "console-shipping");

    await drainJobs(suite.server);
    const mail = mailedText(url, card.email);
    expect(mail).toContain(`Tracking number: ${shipment.tracking_number}`);
    const browser = await openBrowser({ bypassCSP: true });
    try {
      const page = await browser.context.newPage();
      await page.goto(`${url}${linkIn(mail, "/portal/callback")}`);
      await page.getByRole("heading", { name: "Your package" }).waitFor();
      await page.getByRole("link", { name: shipment.tracking_number }).waitFor();
      await page.getByText("Delivered, handed to resident").waitFor();
      await check(page, "order-package");
    } finally {
      await browser.close();
    }
  });
});

async function orderIdOf(number: number) {
  const row = await suite.server.db.selectFrom("orders").select("id").where("number", "=", number).executeTakeFirst();
  return row?.id;
}
