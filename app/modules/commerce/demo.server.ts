/**
 * The demo's shop (Harbor Bakery's, ADR 030): a few products with options, stock and the demo's photos, three
 * collections, UK delivery and pickup at the bakery, VAT, a welcome coupon, bank transfer and pay on pickup, and
 * one order from a demo customer waiting for payment — so a first run's shop and console show what they are for.
 * Through the module's own functions, like the rest of the demo.
 */
import type { Db } from "~db/client";
import type { MediaItem } from "~/modules/files/media-urls";
import { cartsOf } from "./cart.server";
import { placeOrder } from "./checkout.server";
import { collectionsOf, productsOf } from "./catalogue.server";
import { couponsOf, shippingOf, taxRatesOf } from "./prices.server";
import { commerceSettingsOf, DEFAULT_COMMERCE_SETTINGS } from "./settings.server";

export async function seedDemoShop(
  db: Db,
  workspaceId: string,
  operatorId: string,
  media: { loaves: MediaItem; pastries: MediaItem; cafe: MediaItem },
  origin: string,
): Promise<void> {
  const collections = collectionsOf(db, workspaceId);
  const bread = await collections.create(
    { title: "Bread", description: "Baked before dawn, sold until it is gone." },
    operatorId,
  );
  const pastries = await collections.create(
    { title: "Pastries", description: "Laminated by hand, baked every morning." },
    operatorId,
  );
  const gifts = await collections.create(
    { title: "Gifts", description: "For the bread lover in your life." },
    operatorId,
  );

  const products = productsOf(db, workspaceId);
  const sourdough = await products.save(
    null,
    {
      title: "Country sourdough",
      description:
        "Our everyday loaf: a 48-hour ferment, stone-baked until the crust crackles.\n\n- 800 g\n- Wheat, rye, water, salt — nothing else\n- Keeps four days wrapped in a cloth",
      status: "active",
      vendor: "Harbor Bakery",
      productType: "Bread",
      tags: ["bread", "vegan"],
      variants: [{ options: [], sku: "HB-SOUR-800", price: 550, weightGrams: 850, stock: 24 }],
      collectionIds: [bread.id],
    },
    operatorId,
  );
  await products.addImage(sourdough.id, media.loaves.id, media.loaves.alt);
  const croissants = await products.save(
    null,
    {
      title: "Butter croissants",
      description: "Three days from dough to oven, with Normandy butter. Warm them for five minutes at 180 °C.",
      status: "active",
      vendor: "Harbor Bakery",
      productType: "Pastry",
      tags: ["pastry"],
      options: [{ name: "Box", values: ["Box of 4", "Box of 6", "Box of 12"] }],
      variants: [
        { options: ["Box of 4"], sku: "HB-CRO-4", price: 900, weightGrams: 320, stock: 10 },
        { options: ["Box of 6"], sku: "HB-CRO-6", price: 1300, compareAtPrice: 1350, weightGrams: 480, stock: 6 },
        { options: ["Box of 12"], sku: "HB-CRO-12", price: 2400, weightGrams: 960, stock: 2 },
      ],
      collectionIds: [pastries.id],
    },
    operatorId,
  );
  await products.addImage(croissants.id, media.pastries.id, media.pastries.alt);
  const cake = await products.save(
    null,
    {
      title: "Lemon drizzle cake",
      description: "Zest of unwaxed lemons, a crackly sugar top. Order two days ahead for a whole cake.",
      status: "active",
      vendor: "Harbor Bakery",
      productType: "Cake",
      tags: ["cake"],
      options: [
        { name: "Size", values: ["Loaf (8 slices)", "Round (12 slices)"] },
        { name: "Topping", values: ["Classic", "Poppy seed"] },
      ],
      variants: [
        { options: ["Loaf (8 slices)", "Classic"], price: 1600, weightGrams: 700, stock: 4 },
        { options: ["Loaf (8 slices)", "Poppy seed"], price: 1700, weightGrams: 700, stock: 0 },
        { options: ["Round (12 slices)", "Classic"], price: 2600, weightGrams: 1100, stock: 2 },
        { options: ["Round (12 slices)", "Poppy seed"], price: 2700, weightGrams: 1100, stock: 1 },
      ],
      collectionIds: [pastries.id, gifts.id],
    },
    operatorId,
  );
  await products.addImage(cake.id, media.cafe.id, media.cafe.alt);
  await products.save(
    null,
    {
      title: "Bread club gift card",
      description: "A loaf a week for a month, collected at the bakery. We e-mail the card to you.",
      status: "active",
      vendor: "Harbor Bakery",
      productType: "Gift card",
      tags: ["gift"],
      variants: [{ options: [], price: 2000, inventoryTracked: false, requiresShipping: false }],
      collectionIds: [gifts.id],
    },
    operatorId,
  );
  await products.save(
    null,
    {
      title: "Christmas stollen",
      description: "Back in December.",
      status: "draft",
      vendor: "Harbor Bakery",
      variants: [{ options: [], price: 1450, weightGrams: 750, stock: 0 }],
    },
    operatorId,
  );

  const shipping = shippingOf(db, workspaceId);
  const uk = await shipping.addZone("United Kingdom", ["GB"], operatorId);
  await shipping.addRate(
    { zoneId: uk, name: "Royal Mail Tracked 48", kind: "flat", price: 395, freeOver: 4000 },
    operatorId,
  );
  await shipping.addRate({ zoneId: uk, name: "Next-day courier", kind: "flat", price: 895 }, operatorId);
  await shipping.addRate(
    {
      zoneId: null,
      name: "Pickup at the bakery",
      kind: "pickup",
      price: 0,
      instructions: "12 Quayside, Whitby — from 8:00 the next morning.",
    },
    operatorId,
  );
  await taxRatesOf(db, workspaceId).save({ country: "GB", name: "VAT", ratePercent: 20 }, operatorId);
  await couponsOf(db, workspaceId).create(
    { code: "WELCOME10", kind: "percent", value: 10, perCustomerLimit: 1 },
    operatorId,
  );
  await commerceSettingsOf(db, workspaceId).update(
    {
      ...DEFAULT_COMMERCE_SETTINGS,
      bankTransfer: true,
      bankInstructions: "Harbor Bakery Ltd\nSort code 20-00-00 · Account 55779911\nIBAN GB33 BUKB 2000 0055 7799 11",
      payOnPickup: true,
    },
    operatorId,
  );

  // One order waiting for payment, from a demo customer who chose to collect it.
  const carts = cartsOf(db, workspaceId);
  const mira = await db
    .selectFrom("customers")
    .select(["id", "email"])
    .where("workspace_id", "=", workspaceId)
    .where("email", "=", "mira.okafor@example.com")
    .executeTakeFirst();
  const { cart } = await carts.create(mira?.id ?? null);
  const box = croissants.variants.find((v) => v.options[0] === "Box of 6")!;
  await carts.add(cart.id, box.id, 1);
  await carts.add(cart.id, sourdough.variants[0]!.id, 2);
  const pickup = (await shipping.rates()).find((r) => r.kind === "pickup")!;
  await placeOrder(db, workspaceId, {
    cartId: cart.id,
    contact: { email: mira?.email ?? "mira.okafor@example.com", name: "Mira Okafor", phone: "+44 20 7946 0321" },
    address: null,
    shippingRateId: pickup.id,
    paymentMethod: "manual:pay_on_pickup",
    customerId: mira?.id ?? null,
    origin,
  });
}
