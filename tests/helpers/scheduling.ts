/** Businesses that take bookings (issue 19, ADR 036), set up through the console's API as an operator would. */
import { expect } from "vitest";
import type { Db } from "~db/client";
import { Client, createWorkspace, signUp, uniqueEmail } from "./client";
import { DEFAULT_PROFILE, profileInputOf, profileOf } from "~/modules/sites/profile.server";

export interface BookableBusiness {
  owner: Client;
  slug: string;
  workspaceId: string;
  hostId: string;
  serviceSlug: string;
  serviceId: string;
}

let businesses = 0;

/**
 * A business in `timeZone` (Europe/Berlin) whose one staff member works `hours` (09:00–17:00) every day, with a
 * 60-minute service; `service` overrides the service's fields.
 */
export async function bookableBusiness(
  server: { url: string; db: Db },
  options: { service?: Record<string, unknown>; hours?: { start: string; end: string }; timeZone?: string } = {},
): Promise<BookableBusiness> {
  businesses += 1;
  const slug = `book-${process.pid}-${businesses}`;
  const timeZone = options.timeZone ?? "Europe/Berlin";
  const { client: owner } = await signUp(server.url);
  await createWorkspace(owner, `Studio ${businesses}`, slug);
  const { id: workspaceId } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  await profileOf(server.db, workspaceId).save(null, { ...profileInputOf(DEFAULT_PROFILE), timeZone, currency: "EUR" });
  const hours = options.hours ?? { start: "09:00", end: "17:00" };
  const weekly = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ...hours }));
  const hostRes = await owner.postJson("/api/editor/bookings/services/availability", { name: "Mia", timeZone, weekly });
  expect(hostRes.status).toBe(201);
  const host = (await hostRes.json()) as { id: string };
  const created = await owner.postJson("/api/editor/bookings/services", {
    name: "Deep tissue massage",
    durationMinutes: 60,
    price: 8000,
    locationKind: "in_person",
    locationDetail: "Torstraße 1, Berlin",
    questions: [{ id: "focus", label: "Anything we should know?", required: false }],
    hostIds: [host.id],
    ...options.service,
  });
  expect(created.status).toBe(201);
  const { slug: serviceSlug, id: serviceId } = (await created.json()) as { slug: string; id: string };
  return { owner, slug, workspaceId, hostId: host.id, serviceSlug, serviceId };
}

export const siteHeader = (slug: string) => ({ "x-atrium-site": slug });

/** `POST /api/v1/bookings` as a visitor in New York, with a fresh e-mail unless the body gives one. */
export function postBooking(client: Client, slug: string, body: Record<string, unknown>) {
  return client.postJson(
    "/api/v1/bookings",
    { name: "Ada Visitor", email: uniqueEmail("visitor"), timeZone: "America/New_York", ...body },
    siteHeader(slug),
  );
}

export interface SlotAnswer {
  start: string;
  end: string;
  seatsLeft: number;
}

/** `GET /api/v1/bookings/services` for `query`; its services' slots. */
export async function availableSlots(base: string, slug: string, query: Record<string, string>) {
  const res = await new Client(base).get(`/api/v1/bookings/services?${new URLSearchParams(query)}`, siteHeader(slug));
  expect(res.status).toBe(200);
  return (await res.json()) as {
    businessTimeZone: string;
    timeZone: string;
    services: { slug: string; slots: SlotAnswer[]; location: { kind: string; detail: string | null } }[];
  };
}
