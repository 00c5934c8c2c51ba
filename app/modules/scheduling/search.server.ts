/**
 * Bookable services for the content index (ADR 037): what each costs, how long it takes, where it happens and how
 * late it can be cancelled, in the words its booking page uses. Active services only: drafts are not on the site.
 */
import { cacheTags } from "~/modules/cache/tags";
import type { SearchSource } from "~/modules/search/index.server";
import { serviceCard } from "./public.server";
import { servicesOf } from "./services.server";

export const servicesSearchSource: SearchSource = {
  kinds: ["service"],
  async documents({ db }, workspaceId) {
    const services = await servicesOf(db, workspaceId).list({ status: "active" });
    return {
      documents: services.map((service) => {
        const card = serviceCard(service);
        return {
          id: `service:${service.id}`,
          kind: "service" as const,
          title: service.name,
          text: [
            card.description,
            `${service.name}: ${card.duration}, ${card.price}${card.deposit ? ` (deposit ${card.deposit})` : ""}.`,
            `Where: ${card.location}.`,
            service.capacity > 1 ? `Up to ${service.capacity} places per session.` : "",
            card.requiresApproval ? "Each request is confirmed by the team." : "",
            card.cancelNotice ? `Cancel or move up to ${card.cancelNotice} before the start.` : "",
          ]
            .filter(Boolean)
            .join("\n"),
          keywords: "book booking appointment session reserve price cost",
          path: `/bookings/${service.slug}`,
        };
      }),
      tags: [cacheTags.bookings(workspaceId)],
    };
  },
};
