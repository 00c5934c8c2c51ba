/**
 * Starting points for a small business's policies, offered in the console when a policy is not written yet and
 * used for the demo. Plain, honest text a business edits to fit — not legal advice, and the console says so.
 */
import type { PolicyKind } from "./policy-kinds";

export interface TemplateFacts {
  businessName: string;
}

const privacy = ({
  businessName: name,
}: TemplateFacts) => `${name} respects your privacy. This policy explains what we collect when you visit our website, write to us or buy from us, why we collect it, and what you can ask us to do with it.

## What we collect

- **Messages you send us.** When you use our contact form we keep your name, your e-mail address and your message, so that we can answer you.
- **Orders and bookings.** When you order or book, we keep what is needed to fulfil it: your name, contact details, delivery address and what you ordered.
- **Visits.** Our website does not use advertising or tracking cookies. Our hosting keeps short-lived technical logs (such as your IP address) to protect the site from abuse.

## Why we use it

We use your information only to answer you, to fulfil your orders and bookings, and to meet our legal obligations (for example, keeping invoices). We never sell it, and we do not share it except with the services that help us run the business (such as payment and delivery providers), and only as far as they need.

## How long we keep it

Messages are kept for up to two years after our last exchange. Order records are kept as long as tax law requires. Technical logs are deleted within 30 days.

## Your rights

You can ask us at any time to see the information we hold about you, to correct it, or to delete it. Write to us through our contact page and we will answer within 30 days.

## Changes

If we change this policy, we will publish the new version on this page with its date.
`;

const terms = ({
  businessName: name,
}: TemplateFacts) => `These terms apply when you use the website of ${name} or buy from us. By placing an order or booking you agree to them.

## Orders

An order is confirmed once we have accepted it and you have received our confirmation. We may decline an order, for example when an item is no longer available; if you have already paid, you are refunded in full.

## Prices and payment

Prices are shown in the local currency and include the taxes that apply. Payment is due when you order, unless we agree otherwise.

## Collection and delivery

We will tell you when your order is ready to collect or when to expect it. If something keeps us from meeting that time, we let you know as soon as we can.

## Our responsibility

We take care that what we sell is as described. Nothing in these terms limits your rights as a consumer under the law.

## Contact

Questions about these terms? Write to us through our contact page.
`;

const refund = ({ businessName: name }: TemplateFacts) => `We want you to be happy with what you buy from ${name}.

## Something wrong with your order?

If anything you received is damaged, faulty or not what you ordered, tell us within **2 days** — a photo helps — and we will replace it or refund you in full, whichever you prefer.

## Fresh and perishable goods

Fresh or perishable goods cannot be returned once they have left our hands, unless there is something wrong with them. Custom orders can be cancelled free of charge up to **48 hours** before the agreed collection or delivery time.

## Other items

Unused items in their original packaging can be returned within **14 days** for a refund. Return shipping is paid by you unless the item was faulty.

## How refunds are paid

Refunds go back to the payment method you used, within 5 working days of our agreeing to them.

## Ask us

Use our contact page, and include your order number if you have one.
`;

const shipping = ({ businessName: name }: TemplateFacts) => `This is how ${name} gets your order to you.

## Where we deliver

We deliver locally and within the country. If your address is outside our delivery area, we will tell you before you pay.

## How long it takes

Orders are prepared within 1–2 working days. Delivery times are shown at checkout and in your confirmation.

## What it costs

Delivery costs are shown at checkout before you pay. Collection from our shop is always free.

## Something went wrong?

If your order is late, damaged or lost, write to us through our contact page and we will put it right.
`;

const TEMPLATES: Record<PolicyKind, (facts: TemplateFacts) => string> = { privacy, terms, refund, shipping };

export function policyTemplate(kind: PolicyKind, facts: TemplateFacts): string {
  return TEMPLATES[kind](facts);
}
