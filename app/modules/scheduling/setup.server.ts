/**
 * Scheduling's setup state (ADR 036): what the console's Scheduling page and the get-started checklist show — who
 * can be booked, a service on sale, and hours someone can be booked in.
 */
import type { Db } from "~db/client";
import { hostsOf, servicesOf } from "./services.server";

export interface SetupItem {
  id: string;
  title: string;
  description: string;
  done: boolean;
  href: string;
  action: string;
}

export async function schedulingSetup(db: Db, workspaceId: string): Promise<SetupItem[]> {
  const [hosts, active] = await Promise.all([
    hostsOf(db, workspaceId).list(),
    servicesOf(db, workspaceId).count("active"),
  ]);
  const withHours = hosts.some((h) => h.weekly.length > 0);
  return [
    {
      id: "booking-hours",
      title: "Set the hours you take bookings",
      description: "Weekly hours for each person or room that is booked, in their own time zone, with days off.",
      done: withHours,
      href: "/scheduling/availability",
      action: hosts.length > 0 ? "Set hours" : "Add who is booked",
    },
    {
      id: "booking-service",
      title: "Offer a service to book",
      description: "How long it takes, the price and any deposit, and the questions to ask when someone books.",
      done: active > 0,
      href: "/scheduling/services",
      action: active > 0 ? "See your services" : "Add a service",
    },
  ];
}
