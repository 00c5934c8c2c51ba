/**
 * Shopify's product CSV, both ways. Operators move to Atrium from Shopify, so the console's import reads
 * Shopify's export as it is (one row per variant, extra rows that carry only an image, grouped by Handle, the
 * product's own fields on its first row), and our export writes the same columns and layout, so a file can go
 * back to Shopify or round-trip through a spreadsheet. Pure: text in, products and problems out.
 *
 * The import is all or nothing per product: a product with any problem on any of its rows is left out, never
 * half-imported, and every problem names the file's line so a shop owner can find it in their spreadsheet.
 */
import { type CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import TurndownService from "turndown";
import { currencyDigits, parseMoney } from "./money";

export interface ImportedVariant {
  /** Values in option order; [] for a product without options. */
  options: string[];
  sku: string | null;
  /** Minor units of the workspace currency. */
  price: number;
  compareAtPrice: number | null;
  weightGrams: number;
  inventoryTracked: boolean;
  inventoryQuantity: number;
  continueSelling: boolean;
  requiresShipping: boolean;
  taxable: boolean;
  barcode: string | null;
  imageSrc: string | null;
}

export interface ImportedProduct {
  handle: string;
  title: string;
  descriptionMarkdown: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: "draft" | "active" | "archived";
  seoTitle: string;
  seoDescription: string;
  options: Array<{ name: string; values: string[] }>;
  variants: ImportedVariant[];
  images: Array<{ src: string; position: number; alt: string }>;
  /** 1-based line of the product's first row in the file (the header is line 1). */
  row: number;
}

export interface CsvProblem {
  row: number;
  column: string | null;
  message: string;
}

export interface CsvImportResult {
  products: ImportedProduct[];
  problems: CsvProblem[];
}

export interface ExportableProduct {
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  tags: string[];
  status: "draft" | "active" | "archived";
  seoTitle: string;
  seoDescription: string;
  options: Array<{ name: string; values: string[] }>;
  variants: Array<{
    options: string[];
    sku: string | null;
    price: number;
    compareAtPrice: number | null;
    weightGrams: number;
    inventoryTracked: boolean;
    inventoryQuantity: number;
    continueSelling: boolean;
    requiresShipping: boolean;
    taxable: boolean;
    barcode: string | null;
    imageSrc: string | null;
  }>;
  images: Array<{ src: string; position: number; alt: string }>;
}

/** Shopify's columns, spelled and ordered as its export writes them. */
const COLUMNS = [
  "Handle",
  "Title",
  "Body (HTML)",
  "Vendor",
  "Product Category",
  "Type",
  "Tags",
  "Published",
  "Option1 Name",
  "Option1 Value",
  "Option2 Name",
  "Option2 Value",
  "Option3 Name",
  "Option3 Value",
  "Variant SKU",
  "Variant Grams",
  "Variant Inventory Tracker",
  "Variant Inventory Qty",
  "Variant Inventory Policy",
  "Variant Fulfillment Service",
  "Variant Price",
  "Variant Compare At Price",
  "Variant Requires Shipping",
  "Variant Taxable",
  "Variant Barcode",
  "Image Src",
  "Image Position",
  "Image Alt Text",
  "Gift Card",
  "SEO Title",
  "SEO Description",
  "Variant Image",
  "Variant Weight Unit",
  "Cost per item",
  "Status",
] as const;

type Column = (typeof COLUMNS)[number];

/** Without these the file is not a product CSV at all: one problem for the file beats one per row. */
const REQUIRED: readonly Column[] = ["Handle", "Title", "Variant Price"];

/** A row with any of these filled describes a variant; the others of a product carry only an image. */
const VARIANT_COLUMNS: readonly Column[] = [
  "Option1 Value",
  "Option2 Value",
  "Option3 Value",
  "Variant SKU",
  "Variant Price",
  "Variant Compare At Price",
  "Variant Grams",
  "Variant Inventory Qty",
  "Variant Barcode",
];

/** Numbers we format ourselves: never a formula, and an apostrophe would stop a spreadsheet summing them. */
const NUMERIC: ReadonlySet<Column> = new Set([
  "Variant Price",
  "Variant Compare At Price",
  "Variant Grams",
  "Variant Inventory Qty",
  "Image Position",
]);

const OPTION_NAME = ["Option1 Name", "Option2 Name", "Option3 Name"] as const;
const OPTION_VALUE = ["Option1 Value", "Option2 Value", "Option3 Value"] as const;

const MAX_OPTIONS = 3;
const MAX_VARIANTS = 100;
const MAX_TAGS = 30;
const MAX_HANDLE = 100;
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 20_000;
/** Shopify's own limit for its short text fields (vendor, type, tags, option values, SKU, SEO title). */
const MAX_SHORT = 255;
const MAX_SEO_DESCRIPTION = 1_000;
const MAX_ALT = 512;
/** Far above any real stock or parcel, far below what a database integer holds. */
const MAX_COUNT = 1_000_000_000;

/** Shopify's markers for "this product has no options": one default variant. */
const DEFAULT_OPTION_NAME = "Title";
const DEFAULT_OPTION_VALUE = "Default Title";

const normalizeHeader = (name: string) =>
  name
    .replace(/^\uFEFF/, "")
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();

const KNOWN = new Map<string, Column>(COLUMNS.map((column) => [normalizeHeader(column), column]));

/**
 * OWASP's CSV-injection advice: a cell a spreadsheet would run as a formula is kept as text with a leading
 * apostrophe. The import takes the apostrophe off again, so our own export round-trips.
 */
const asText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
const unguard = (value: string) => value.replace(/^'(?=[=+\-@\t\r])/, "");

const quoted = (value: string) => `“${value}”`;

interface Row {
  /** 1-based line where the row starts. */
  line: number;
  cells: string[];
}

interface Header {
  index: Map<Column, number>;
  /** Option4 and beyond: Atrium keeps three options, so anything there must be refused, not dropped. */
  extraOptions: Array<{ index: number; name: string }>;
}

/**
 * Reads the records with the line each starts on. csv-parse counts a CR LF inside a quoted cell as two lines
 * (it counts every CR and LF there), where an editor or spreadsheet counts one; a running correction keeps the
 * lines we report equal to what the shop owner sees.
 */
function readRows(text: string): { rows: Row[] } | { problem: CsvProblem } {
  const rows: Row[] = [];
  let overcount = 0;
  let lastEnd = 0;
  try {
    parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        let crlf = 0;
        let breaks = 0;
        for (const cell of record) {
          crlf += cell.match(/\r\n/g)?.length ?? 0;
          breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
        }
        overcount += crlf;
        lastEnd = context.lines - overcount;
        rows.push({ line: lastEnd - breaks, cells: record });
        return record;
      },
    });
  } catch (error) {
    if (!isCsvError(error)) throw error;
    return { problem: malformed(error, text, lastEnd, overcount) };
  }
  return { rows };
}

/** By its code, not `instanceof`: csv-parse's CommonJS build gives each entry point its own copy of the class. */
const isCsvError = (error: unknown): error is CsvError =>
  error instanceof Error &&
  typeof (error as { code?: unknown }).code === "string" &&
  /^CSV_/.test((error as CsvError).code);

function malformed(error: CsvError, text: string, lastEnd: number, overcount: number): CsvProblem {
  if (error.code === "CSV_QUOTE_NOT_CLOSED") {
    // csv-parse reports the end of the file here; the quote opened in the row after the last one read.
    const lines = text.split(/\r\n|\r|\n/);
    let row = lastEnd + 1;
    while (row < lines.length && (lines[row - 1] ?? "").trim() === "") row += 1;
    return {
      row,
      column: null,
      message: `The row on line ${row} opens a quote (") that is never closed, so the file can't be read from there`,
    };
  }
  const row = typeof error.lines === "number" ? error.lines - overcount : lastEnd + 1;
  if (error.code === "CSV_INVALID_CLOSING_QUOTE") {
    return {
      row,
      column: null,
      message: `Line ${row} has text right after a closing quote ("); a quote inside a cell must be written twice ("")`,
    };
  }
  return { row, column: null, message: `Line ${row} can't be read as CSV; save the file again as CSV (UTF-8)` };
}

function readHeader(cells: string[]): { header: Header } | { problem: CsvProblem } {
  const index = new Map<Column, number>();
  const extraOptions: Header["extraOptions"] = [];
  for (const [i, raw] of cells.entries()) {
    const name = normalizeHeader(raw);
    const column = KNOWN.get(name);
    if (column) {
      if (index.has(column)) {
        return { problem: { row: 1, column, message: `The column ${quoted(column)} appears twice in the header` } };
      }
      index.set(column, i);
      continue;
    }
    const option = /^option\s*(\d+)\s+(name|value)$/.exec(name);
    if (option && Number(option[1]) > MAX_OPTIONS) extraOptions.push({ index: i, name: raw.trim() });
  }
  const missing = REQUIRED.filter((column) => !index.has(column));
  if (missing.length > 0) {
    return {
      problem: {
        row: 1,
        column: missing[0] ?? null,
        message:
          `The file has no ${missing.map(quoted).join(", ")} column${missing.length > 1 ? "s" : ""}: it doesn't look like a Shopify product CSV ` +
          "(in Shopify: Products → Export)",
      },
    };
  }
  return { header: { index, extraOptions } };
}

let turndownService: TurndownService | undefined;

/**
 * Shopify keeps descriptions as HTML; Atrium keeps Markdown, rendered and sanitized when shown, so links or
 * images with hostile URLs are dealt with there. What never belongs in a description goes here, content and all.
 */
function toMarkdown(html: string): string {
  if (html.trim() === "") return "";
  turndownService ??= new TurndownService({
    headingStyle: "atx",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
  }).remove(["script", "style", "noscript", "template", "iframe", "object", "embed"]);
  return turndownService.turndown(html).trim();
}

/** A count (stock, an image's position): digits only, no sign, no separators. */
const WHOLE = /^\d+$/;

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

class ProductReader {
  readonly problems: CsvProblem[] = [];

  constructor(
    private readonly header: Header,
    private readonly currency: string,
  ) {}

  cell(row: Row, column: Column): string {
    const i = this.header.index.get(column);
    return i === undefined ? "" : unguard(row.cells[i] ?? "").trim();
  }

  problem(row: Row, column: string | null, message: string) {
    this.problems.push({ row: row.line, column, message });
  }

  /** Text that must fit a limit; the problem says how long it is, so the owner knows how much to cut. */
  text(row: Row, column: Column, max: number): string {
    const value = this.cell(row, column);
    if (value.length > max) {
      this.problem(row, column, `${column} is ${value.length} characters long; Atrium keeps at most ${max}`);
    }
    return value;
  }

  nullableText(row: Row, column: Column, max: number): string | null {
    return this.text(row, column, max) || null;
  }

  /**
   * Shopify stores prices with two decimals whatever the currency, so a JPY shop's export says "1000.00": zeros
   * past the currency's digits change nothing and are dropped; any other digit there is refused by parseMoney.
   */
  amount(row: Row, column: Column): number | null {
    const value = this.cell(row, column);
    const digits = currencyDigits(this.currency);
    const decimal = /^(\d+)\.(\d+)$/.exec(value);
    let text = value;
    if (decimal && (decimal[2] ?? "").length > digits && /^0*$/.test((decimal[2] ?? "").slice(digits))) {
      const fraction = (decimal[2] ?? "").slice(0, digits);
      text = fraction ? `${decimal[1]}.${fraction}` : (decimal[1] ?? "");
    }
    const minor = parseMoney(text, this.currency);
    if (minor !== null) return minor;
    if (decimal && (decimal[2] ?? "").length > digits) {
      const allowed = digits === 0 ? "none" : `at most ${digits}`;
      this.problem(
        row,
        column,
        `${column} ${quoted(value)} has more decimals than ${this.currency} has (${allowed}); correct the amount`,
      );
    } else {
      this.problem(row, column, `${column} ${quoted(value)} is not an amount in ${this.currency}`);
    }
    return null;
  }

  flag(row: Row, column: Column, fallback: boolean): boolean {
    const value = this.cell(row, column);
    if (value === "") return fallback;
    if (sameText(value, "true")) return true;
    if (sameText(value, "false")) return false;
    this.problem(row, column, `${column} ${quoted(value)} should be TRUE or FALSE`);
    return fallback;
  }

  webAddress(row: Row, column: Column): string | null {
    const value = this.cell(row, column);
    if (value === "") return null;
    if (!isWebAddress(value)) {
      this.problem(row, column, `${column} ${quoted(value)} is not a web address (http:// or https://)`);
      return null;
    }
    return value;
  }

  read(rows: Row[]): ImportedProduct | null {
    const first = rows[0];
    if (!first) return null;
    const before = this.problems.length;

    const handle = this.cell(first, "Handle");
    if (handle.length > MAX_HANDLE) {
      this.problem(first, "Handle", `Handle is ${handle.length} characters long; Atrium keeps at most ${MAX_HANDLE}`);
    } else if (!/^[a-z0-9-]+$/.test(handle)) {
      this.problem(
        first,
        "Handle",
        `Handle ${quoted(handle)} can only have lower-case letters, digits and hyphens (-), such as “sourdough-loaf”`,
      );
    }

    const title = this.text(first, "Title", MAX_TITLE);
    if (title === "") this.problem(first, "Title", `Title is empty: the first row of ${quoted(handle)} needs one`);

    let descriptionMarkdown = "";
    try {
      descriptionMarkdown = toMarkdown(this.cell(first, "Body (HTML)"));
    } catch {
      this.problem(first, "Body (HTML)", "Body (HTML) can't be read as HTML");
    }
    if (descriptionMarkdown.length > MAX_DESCRIPTION) {
      this.problem(
        first,
        "Body (HTML)",
        `Body (HTML) is ${descriptionMarkdown.length} characters long as text; Atrium keeps at most ${MAX_DESCRIPTION}`,
      );
    }

    const tags = this.tags(first);
    const status = this.status(first);
    const options = this.optionNames(first, rows);
    const variantRows = rows.filter((row) => VARIANT_COLUMNS.some((column) => this.cell(row, column) !== ""));
    const variants = this.variants(first, handle, variantRows, options);
    const images = this.images(rows);

    const product: ImportedProduct = {
      handle,
      title,
      descriptionMarkdown,
      vendor: this.text(first, "Vendor", MAX_SHORT),
      productType: this.text(first, "Type", MAX_SHORT),
      tags,
      status,
      seoTitle: this.text(first, "SEO Title", MAX_SHORT),
      seoDescription: this.text(first, "SEO Description", MAX_SEO_DESCRIPTION),
      options,
      variants,
      images,
      row: first.line,
    };
    return this.problems.length === before ? product : null;
  }

  /** Shopify treats tags case-insensitively, so "Vegan" and "vegan" are one tag: the first spelling stays. */
  tags(first: Row): string[] {
    const tags: string[] = [];
    const seen = new Set<string>();
    for (const tag of this.cell(first, "Tags").split(",")) {
      const trimmed = tag.trim();
      const key = trimmed.toLowerCase();
      if (trimmed === "" || seen.has(key)) continue;
      if (trimmed.length > MAX_SHORT) {
        this.problem(first, "Tags", `The tag ${quoted(trimmed.slice(0, 40))}… is longer than ${MAX_SHORT} characters`);
      }
      seen.add(key);
      tags.push(trimmed);
    }
    if (tags.length > MAX_TAGS) {
      this.problem(first, "Tags", `Tags lists ${tags.length} tags; Atrium keeps at most ${MAX_TAGS} per product`);
    }
    return tags;
  }

  /** Exports from before Shopify's Status column say only whether the product is published. */
  status(first: Row): ImportedProduct["status"] {
    const status = this.cell(first, "Status").toLowerCase();
    if (status === "active" || status === "draft" || status === "archived") return status;
    if (status !== "") {
      this.problem(first, "Status", `Status ${quoted(this.cell(first, "Status"))} should be active, draft or archived`);
      return "draft";
    }
    return sameText(this.cell(first, "Published"), "true") ? "active" : "draft";
  }

  /**
   * Option names come from the product's first row, as Shopify writes them. "Title" with the value "Default
   * Title" is how Shopify spells a product without options; the option values are collected with the variants.
   */
  optionNames(first: Row, rows: Row[]): ImportedProduct["options"] {
    // One problem is enough: the fix (dropping the fourth option) is the same for every cell of it.
    const extra = rows
      .flatMap((row) => this.header.extraOptions.map((column) => ({ row, ...column })))
      .find(({ row, index }) => (row.cells[index] ?? "").trim() !== "");
    if (extra) {
      this.problem(
        extra.row,
        extra.name,
        `${extra.name} is filled in, but an Atrium product has at most ${MAX_OPTIONS} options`,
      );
    }
    const names = OPTION_NAME.map((column) => this.text(first, column, MAX_SHORT));
    if (
      sameText(names[0] ?? "", DEFAULT_OPTION_NAME) &&
      sameText(this.cell(first, "Option1 Value"), DEFAULT_OPTION_VALUE)
    ) {
      return [];
    }
    const options: ImportedProduct["options"] = [];
    for (const [i, name] of names.entries()) {
      if (name === "") continue;
      if (options.length < i) {
        this.problem(first, OPTION_NAME[i] ?? null, `${OPTION_NAME[i]} is set but ${OPTION_NAME[i - 1]} is empty`);
      } else if (options.some((option) => sameText(option.name, name))) {
        this.problem(first, OPTION_NAME[i] ?? null, `Two options are both called ${quoted(name)}`);
      }
      options.push({ name, values: [] });
    }
    return options;
  }

  variants(first: Row, handle: string, rows: Row[], options: ImportedProduct["options"]): ImportedVariant[] {
    if (rows.length === 0) {
      this.problem(first, "Variant Price", `${quoted(handle)} has no variant: its first row needs a Variant Price`);
      return [];
    }
    if (rows.length > MAX_VARIANTS) {
      this.problem(first, null, `${quoted(handle)} has ${rows.length} variants; Atrium takes at most ${MAX_VARIANTS}`);
    }
    const seen = new Set<string>();
    const variants: ImportedVariant[] = [];
    for (const row of rows) {
      const values = this.optionValues(row, options);
      const key = JSON.stringify(values);
      if (seen.has(key)) {
        const message =
          options.length === 0
            ? `${quoted(handle)} has no options, so it has a single variant; this row would be a second one`
            : `Another variant already has ${values.map((v, i) => `${options[i]?.name} ${quoted(v)}`).join(", ")}; ` +
              "each variant needs its own combination of options";
        this.problem(row, options.length === 0 ? null : "Option1 Value", message);
      }
      seen.add(key);
      variants.push(this.variant(row, values));
    }
    return variants;
  }

  optionValues(row: Row, options: ImportedProduct["options"]): string[] {
    const values: string[] = [];
    for (const [i, column] of OPTION_VALUE.entries()) {
      const value = this.text(row, column, MAX_SHORT);
      const option = options[i];
      if (option) {
        if (value === "") {
          this.problem(row, column, `${column} is empty; every variant needs a ${option.name}`);
        } else if (!option.values.includes(value)) {
          option.values.push(value);
        }
        values.push(value);
      } else if (value !== "" && !(options.length === 0 && i === 0 && sameText(value, DEFAULT_OPTION_VALUE))) {
        this.problem(row, column, `${column} ${quoted(value)} has no ${OPTION_NAME[i]} on the product's first row`);
      }
    }
    return values;
  }

  variant(row: Row, options: string[]): ImportedVariant {
    let price = 0;
    if (this.cell(row, "Variant Price") === "") {
      this.problem(row, "Variant Price", `Variant Price is empty; enter an amount in ${this.currency}`);
    } else {
      price = this.amount(row, "Variant Price") ?? 0;
    }
    const compareAtPrice =
      this.cell(row, "Variant Compare At Price") === "" ? null : this.amount(row, "Variant Compare At Price");
    return {
      options,
      sku: this.nullableText(row, "Variant SKU", MAX_SHORT),
      price,
      compareAtPrice,
      weightGrams: this.grams(row),
      inventoryTracked: this.cell(row, "Variant Inventory Tracker") !== "",
      inventoryQuantity: this.quantity(row),
      continueSelling: this.policy(row),
      requiresShipping: this.flag(row, "Variant Requires Shipping", true),
      taxable: this.flag(row, "Variant Taxable", true),
      barcode: this.nullableText(row, "Variant Barcode", MAX_SHORT),
      imageSrc: this.webAddress(row, "Variant Image"),
    };
  }

  /** Newer Shopify exports write grams as a decimal ("800.0"); a fraction of a gram is rounded away. */
  grams(row: Row): number {
    const value = this.cell(row, "Variant Grams");
    if (value === "") return 0;
    const grams = /^\d+(?:\.\d+)?$/.test(value) ? Math.round(Number(value)) : NaN;
    if (!(grams <= MAX_COUNT)) {
      this.problem(row, "Variant Grams", `Variant Grams ${quoted(value)} is not a weight in grams, such as 250`);
      return 0;
    }
    return grams;
  }

  quantity(row: Row): number {
    const value = this.cell(row, "Variant Inventory Qty");
    if (value === "") return 0;
    if (/^-\d+$/.test(value)) {
      this.problem(row, "Variant Inventory Qty", `Variant Inventory Qty ${quoted(value)} is negative; enter 0 or more`);
      return 0;
    }
    if (!WHOLE.test(value) || Number(value) > MAX_COUNT) {
      this.problem(row, "Variant Inventory Qty", `Variant Inventory Qty ${quoted(value)} is not a whole number`);
      return 0;
    }
    return Number(value);
  }

  policy(row: Row): boolean {
    const value = this.cell(row, "Variant Inventory Policy");
    if (value === "" || sameText(value, "deny")) return false;
    if (sameText(value, "continue")) return true;
    this.problem(
      row,
      "Variant Inventory Policy",
      `Variant Inventory Policy ${quoted(value)} should be deny or continue`,
    );
    return false;
  }

  /** Every row may carry an image; a missing position keeps the image after the numbered ones, in file order. */
  images(rows: Row[]): ImportedProduct["images"] {
    const found: Array<{ src: string; position: number; alt: string; order: number }> = [];
    for (const [order, row] of rows.entries()) {
      const src = this.webAddress(row, "Image Src");
      const positionText = this.cell(row, "Image Position");
      let position = Number.MAX_SAFE_INTEGER;
      if (positionText !== "") {
        if (WHOLE.test(positionText) && Number(positionText) >= 1) {
          position = Number(positionText);
        } else {
          this.problem(row, "Image Position", `Image Position ${quoted(positionText)} should be 1 or more`);
        }
      }
      const alt = this.text(row, "Image Alt Text", MAX_ALT);
      if (src && !found.some((image) => image.src === src)) found.push({ src, position, alt, order });
    }
    found.sort((a, b) => a.position - b.position || a.order - b.order);
    // Renumbered from 1: gaps and ties in the file mean nothing beyond the order.
    return found.map((image, i) => ({ src: image.src, position: i + 1, alt: image.alt }));
  }
}

export function parseProductCsv(text: string, currency: string, options: { maxRows?: number } = {}): CsvImportResult {
  const maxRows = options.maxRows ?? 5000;
  const read = readRows(text);
  if ("problem" in read) return { products: [], problems: [read.problem] };
  // A row of empty cells is what a spreadsheet leaves after deleting a row's contents: not a row at all.
  const [headerRow, ...rows] = read.rows.filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (!headerRow) {
    return { products: [], problems: [{ row: 1, column: null, message: "The file is empty" }] };
  }
  const parsedHeader = readHeader(headerRow.cells);
  if ("problem" in parsedHeader) return { products: [], problems: [{ ...parsedHeader.problem, row: headerRow.line }] };
  const beyond = rows[maxRows];
  if (beyond) {
    return {
      products: [],
      problems: [
        {
          row: beyond.line,
          column: null,
          message: `The file has ${rows.length} rows; import at most ${maxRows} at a time by splitting it into smaller files`,
        },
      ],
    };
  }

  const reader = new ProductReader(parsedHeader.header, currency);
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const handle = reader.cell(row, "Handle");
    if (handle === "") {
      reader.problem(row, "Handle", "Handle is empty; every row needs the handle of the product it belongs to");
      continue;
    }
    const group = groups.get(handle);
    if (group) group.push(row);
    else groups.set(handle, [row]);
  }
  const products: ImportedProduct[] = [];
  for (const group of groups.values()) {
    const product = reader.read(group);
    if (product) products.push(product);
  }
  const problems = reader.problems.sort((a, b) => a.row - b.row);
  return { products, problems };
}

/** Minor units to the plain decimal Shopify's columns hold: 1250 EUR → "12.50", 1000 JPY → "1000". */
function decimal(minor: number, digits: number): string {
  const sign = minor < 0 ? "-" : "";
  const units = Math.abs(minor);
  const scale = 10 ** digits;
  const whole = Math.floor(units / scale);
  return digits === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(units % scale).padStart(digits, "0")}`;
}

const bool = (value: boolean) => (value ? "TRUE" : "FALSE");

export function productsToCsv(products: readonly ExportableProduct[], currency: string): string {
  const digits = currencyDigits(currency);
  const rows: string[][] = [];
  for (const product of products) {
    const images = [...product.images].sort((a, b) => a.position - b.position);
    const withoutOptions = product.options.length === 0;
    // Shopify's layout: the nth row carries the nth variant and the nth image; images left over get rows of their own.
    const count = Math.max(product.variants.length, images.length, 1);
    for (let i = 0; i < count; i += 1) {
      const cells: Partial<Record<Column, string>> = { Handle: product.handle };
      if (i === 0) {
        Object.assign(cells, {
          Title: product.title,
          "Body (HTML)": product.descriptionHtml,
          Vendor: product.vendor,
          Type: product.productType,
          Tags: product.tags.join(", "),
          Published: bool(product.status === "active"),
          "Gift Card": "FALSE",
          "SEO Title": product.seoTitle,
          "SEO Description": product.seoDescription,
          Status: product.status,
        } satisfies Partial<Record<Column, string>>);
        if (withoutOptions) cells["Option1 Name"] = DEFAULT_OPTION_NAME;
        for (const [n, option] of product.options.slice(0, MAX_OPTIONS).entries()) {
          cells[OPTION_NAME[n] as Column] = option.name;
        }
      }
      const variant = product.variants[i];
      if (variant) {
        if (withoutOptions) cells["Option1 Value"] = DEFAULT_OPTION_VALUE;
        for (const [n, value] of variant.options.slice(0, MAX_OPTIONS).entries()) {
          cells[OPTION_VALUE[n] as Column] = value;
        }
        Object.assign(cells, {
          "Variant SKU": variant.sku ?? "",
          "Variant Grams": String(variant.weightGrams),
          "Variant Inventory Tracker": variant.inventoryTracked ? "shopify" : "",
          "Variant Inventory Qty": String(variant.inventoryQuantity),
          "Variant Inventory Policy": variant.continueSelling ? "continue" : "deny",
          "Variant Fulfillment Service": "manual",
          "Variant Price": decimal(variant.price, digits),
          "Variant Compare At Price": variant.compareAtPrice === null ? "" : decimal(variant.compareAtPrice, digits),
          "Variant Requires Shipping": bool(variant.requiresShipping),
          "Variant Taxable": bool(variant.taxable),
          "Variant Barcode": variant.barcode ?? "",
          "Variant Image": variant.imageSrc ?? "",
          "Variant Weight Unit": "g",
        } satisfies Partial<Record<Column, string>>);
      }
      const image = images[i];
      if (image) {
        Object.assign(cells, {
          "Image Src": image.src,
          "Image Position": String(image.position),
          "Image Alt Text": image.alt,
        } satisfies Partial<Record<Column, string>>);
      }
      rows.push(COLUMNS.map((column) => (NUMERIC.has(column) ? (cells[column] ?? "") : asText(cells[column] ?? ""))));
    }
  }
  return stringify(rows, { header: true, columns: [...COLUMNS] });
}
