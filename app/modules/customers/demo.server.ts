/**
 * The demo's customers (Harbor Bakery's): two people with accounts, one of them with a support request the
 * bakery has answered, so a first run's Customers and Inbox show what they are for. Through the module's own
 * functions, like the rest of the demo.
 */
import type { Db } from "~db/client";
import { customersOf } from "./customers.server";
import { ticketsOf } from "./tickets.server";

export async function seedDemoCustomers(
  db: Db,
  workspaceId: string,
  operatorId: string,
  origin: string,
): Promise<void> {
  const customers = customersOf(db, workspaceId);
  const mira = await customers.proven("mira.okafor@example.com", { allowSignup: true });
  const tom = await customers.proven("tom.lindqvist@example.com", { allowSignup: true });
  if (!mira || !tom) return;
  await customers.updateByOperator(
    mira.id,
    { name: "Mira Okafor", phone: "+44 20 7946 0321", tags: ["regular", "cakes"], notes: "Prefers lemon." },
    operatorId,
  );
  await customers.updateByOperator(tom.id, { name: "Tom Lindqvist", tags: ["wholesale"] }, operatorId);
  const tickets = ticketsOf(db, workspaceId);
  const cake = await tickets.open(
    {
      subject: "Birthday cake for Saturday",
      message: "Hello! Could you make a lemon cake for 12 people, ready on Saturday morning?",
    },
    { customerId: mira.id, email: mira.email, name: "Mira Okafor" },
    origin,
  );
  await tickets.replyAsOperator(
    cake.id,
    "Of course — a lemon drizzle for 12 will be ready from 9:00 on Saturday. Any writing on top?",
    operatorId,
    origin,
  );
  await tickets.open(
    { subject: "Weekly bread order", message: "Can we move our Friday delivery to Thursday from next week?" },
    { customerId: tom.id, email: tom.email, name: "Tom Lindqvist" },
    origin,
  );
}
