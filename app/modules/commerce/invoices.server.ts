/**
 * Invoices (issue 18, ADR 032): one per paid order, issued in the payment's transaction with the workspace's next
 * number (orders.server.ts, `issueInvoice`), and its PDF drawn with pdfkit from what the order keeps — its lines,
 * totals, tax and currency as they were placed — so an invoice reads the same whenever it is fetched. The
 * business's name and address are today's profile's (a later change of address shows on later downloads).
 */
import PDFDocument from "pdfkit";
import type { Db } from "~db/client";
import { notFound } from "~/lib/errors";
import { profileOf } from "~/modules/sites/profile.server";
import { formatMoney } from "./money";
import { type Order, type OrderLine, ordersOf } from "./orders.server";
import { countryName } from "./vocabulary";

export interface Invoice {
  id: string;
  orderId: string;
  number: number;
  issuedAt: string;
}

/** A customer's invoice as their billing page and `GET /api/v1/billing/overview` list it. */
export interface CustomerInvoice {
  number: number;
  issuedAt: string;
  orderId: string;
  orderNumber: number;
  total: number;
  refunded: number;
  currency: string;
}

export function invoicesOf(db: Db, workspaceId: string) {
  const customers = (customerId: string) =>
    db
      .selectFrom("invoices as i")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .where("i.workspace_id", "=", workspaceId)
      .where("o.workspace_id", "=", workspaceId)
      .where("o.customer_id", "=", customerId);
  return {
    /** A signed-in customer's invoices, newest first: only orders that are theirs. */
    async ofCustomer(customerId: string, page: { size: number; offset: number }): Promise<CustomerInvoice[]> {
      const rows = await customers(customerId)
        .select([
          "i.number",
          "i.issued_at",
          "o.id as order_id",
          "o.number as order_number",
          "o.total",
          "o.refunded",
          "o.currency",
        ])
        .orderBy("i.number", "desc")
        .limit(page.size)
        .offset(page.offset)
        .execute();
      return rows.map((r) => ({
        number: r.number,
        issuedAt: r.issued_at,
        orderId: r.order_id,
        orderNumber: r.order_number,
        total: r.total,
        refunded: r.refunded,
        currency: r.currency,
      }));
    },

    async countOfCustomer(customerId: string): Promise<number> {
      const row = await customers(customerId)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async forOrder(orderId: string): Promise<Invoice | null> {
      const row = await db
        .selectFrom("invoices")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("order_id", "=", orderId)
        .executeTakeFirst();
      return row ? { id: row.id, orderId: row.order_id, number: row.number, issuedAt: row.issued_at } : null;
    },

    /** The invoice's PDF; 404 when the order has none (not paid). */
    async pdf(orderId: string, businessName: string): Promise<{ invoice: Invoice; bytes: Buffer }> {
      const made = await this.pdfIfIssued(orderId, businessName);
      if (!made) throw notFound("This order has no invoice yet: it is issued when the order is paid");
      return made;
    },

    /** The invoice's PDF, or null when the order has none (the receipt of an order paid before invoices). */
    async pdfIfIssued(orderId: string, businessName: string): Promise<{ invoice: Invoice; bytes: Buffer } | null> {
      const invoice = await this.forOrder(orderId);
      if (!invoice) return null;
      const orders = ordersOf(db, workspaceId);
      const [order, lines, profile] = await Promise.all([
        orders.byId(orderId),
        orders.linesOf(orderId),
        profileOf(db, workspaceId).get(),
      ]);
      const from = [
        businessName,
        profile.address.street,
        [profile.address.postalCode, profile.address.locality].filter(Boolean).join(" "),
        profile.address.country ? countryName(profile.address.country) : "",
      ].filter(Boolean);
      const bytes = await drawInvoice({ invoice, order, lines, from, timeZone: profile.timeZone });
      return { invoice, bytes };
    },
  };
}

export const invoiceFileName = (invoice: Invoice) => `invoice-${invoice.number}.pdf`;

/** An invoice as a download: opened in the browser's viewer, kept by no shared cache. */
export function pdfResponse(bytes: Buffer, name: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

function drawInvoice(input: {
  invoice: Invoice;
  order: Order;
  lines: OrderLine[];
  from: string[];
  timeZone: string;
}): Promise<Buffer> {
  const { invoice, order, lines, from, timeZone } = input;
  const money = (n: number) => formatMoney(n, order.currency);
  const day = (iso: string) => new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone }).format(new Date(iso));
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: `Invoice ${invoice.number}`, Author: from[0] ?? "", Subject: `Order #${order.number}` },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));

  const left = 56;
  const right = doc.page.width - 56;
  doc.font("Helvetica-Bold").fontSize(20).text(`Invoice ${invoice.number}`, left, 56);
  doc.font("Helvetica").fontSize(10).fillColor("#444");
  doc.text(`Issued ${day(invoice.issuedAt)} · Order #${order.number}`);
  doc.moveDown(1.5);
  const top = doc.y;
  doc.fillColor("#000").font("Helvetica-Bold").text("From", left, top);
  doc.font("Helvetica").text(from.join("\n"));
  const billed = [
    order.name,
    order.email,
    ...(order.address
      ? [
          order.address.line1,
          ...(order.address.line2 ? [order.address.line2] : []),
          `${order.address.postalCode} ${order.address.city}`,
          countryName(order.address.country),
        ]
      : []),
  ];
  doc.font("Helvetica-Bold").text("Billed to", 320, top);
  doc.font("Helvetica").text(billed.join("\n"), 320);
  doc.moveDown(2);

  const columns = { item: left, qty: 330, price: 390, amount: 470 };
  const row = (cells: [string, string, string, string], bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica");
    doc.text(cells[0], columns.item, y, { width: 260 });
    const after = doc.y;
    doc.text(cells[1], columns.qty, y, { width: 50, align: "right" });
    doc.text(cells[2], columns.price, y, { width: 70, align: "right" });
    doc.text(cells[3], columns.amount, y, { width: right - columns.amount, align: "right" });
    doc.y = Math.max(after, doc.y) + 4;
  };
  row(["Item", "Qty", "Price", "Amount"], true);
  doc.moveTo(left, doc.y).lineTo(right, doc.y).strokeColor("#ccc").stroke();
  doc.moveDown(0.4);
  for (const l of lines)
    row([
      l.variantTitle ? `${l.title} · ${l.variantTitle}` : l.title,
      String(l.quantity),
      money(l.unitPrice),
      money(l.unitPrice * l.quantity),
    ]);
  doc.moveTo(left, doc.y).lineTo(right, doc.y).strokeColor("#ccc").stroke();
  doc.moveDown(0.6);

  const total = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").text(label, 300, y, { width: 160 });
    doc.text(value, columns.amount, y, { width: right - columns.amount, align: "right" });
    doc.moveDown(0.3);
  };
  total("Subtotal", money(order.subtotal));
  if (order.discount > 0)
    total(order.couponCode ? `Discount (${order.couponCode})` : "Discount", `-${money(order.discount)}`);
  total(`Delivery · ${order.shippingMethod}`, money(order.shipping));
  total(order.pricesIncludeTax ? "Including tax" : "Tax", money(order.tax));
  total("Total", money(order.total), true);
  if (order.refunded > 0) total("Refunded", `-${money(order.refunded)}`);
  doc.moveDown(1.5);
  doc.font("Helvetica").fontSize(9).fillColor("#444");
  doc.text(`Paid ${order.paidAt ? day(order.paidAt) : ""}. Amounts in ${order.currency}.`, left);
  doc.end();
  return done;
}
