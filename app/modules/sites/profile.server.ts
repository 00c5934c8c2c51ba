/**
 * The business profile: what the business is and how to reach it — time zone, currency, address, phone,
 * e-mail, weekly opening hours and exceptions to them (holidays, late openings). One row per workspace,
 * created on first save. The public footer, the contact page, the `LocalBusiness` structured data, and later
 * the shop (currency), bookings (time zone, hours) and chat read it from here.
 *
 * Hours are wall-clock times in the profile's time zone ("07:30"–"18:00"), stored as JSON because they are
 * always read and written whole. A day may have up to two intervals (a lunch break); "closed" is no interval.
 */
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { Db } from "~db/client";
import type { SiteProfilesTable } from "~db/schema";
import { isoNow, now } from "~/lib/clock.server";
import { invalid } from "~/lib/errors";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { DAY_NAMES, DAYS, type Day } from "./hours";

export { DAY_NAMES, DAYS, type Day } from "./hours";

export interface Interval {
  open: string;
  close: string;
}
export type WeeklyHours = Record<Day, Interval[]>;

export interface HoursException {
  /** YYYY-MM-DD in the profile's time zone. */
  date: string;
  /** Empty: closed all day. */
  hours: Interval[];
  note: string;
}

export interface BusinessProfile {
  tagline: string;
  timeZone: string;
  currency: string;
  address: { street: string; locality: string; region: string; postalCode: string; country: string };
  phone: string;
  email: string;
  hours: WeeklyHours;
  exceptions: HoursException[];
  updatedAt: string | null;
}

export const MAX_EXCEPTIONS = 60;

const EMPTY_WEEK: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };

export const DEFAULT_PROFILE: BusinessProfile = {
  tagline: "",
  timeZone: "UTC",
  currency: "USD",
  address: { street: "", locality: "", region: "", postalCode: "", country: "" },
  phone: "",
  email: "",
  hours: EMPTY_WEEK,
  exceptions: [],
  updatedAt: null,
};

let timeZones: Set<string> | undefined;
/** The IANA time zones this runtime knows (Intl), plus UTC. */
export function timeZoneList(): string[] {
  timeZones ??= new Set(["UTC", ...Intl.supportedValuesOf("timeZone")]);
  return [...timeZones];
}
let currencies: string[] | undefined;
/** ISO 4217 codes this runtime knows, with their English names. */
export function currencyList(): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(["en"], { type: "currency" });
  currencies ??= Intl.supportedValuesOf("currency");
  return currencies.map((code) => ({ code, name: names.of(code) ?? code }));
}
let countries: { code: string; name: string }[] | undefined;
/** ISO 3166-1 alpha-2 regions Intl can name, sorted by name. */
export function countryList(): { code: string; name: string }[] {
  if (!countries) {
    const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
    const found: { code: string; name: string }[] = [];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        // Exceptional and user-assigned codes (EU, UN, XA…, ZZ) are not countries an address is in.
        if (/^(X.|Q[M-Z]|AA|ZZ|EU|EZ|UN)$/.test(code)) continue;
        const name = names.of(code);
        if (name && name !== code) found.push({ code, name });
      }
    }
    countries = found.sort((x, y) => x.name.localeCompare(y.name));
  }
  return countries;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string().trim().regex(TIME, "Use a 24-hour time such as 07:30");
const IntervalSchema = z
  .object({ open: time, close: time })
  .refine((i) => i.close > i.open, { message: "Closing time must be after opening time", path: ["close"] });
const DayHours = z
  .array(IntervalSchema)
  .max(2, "Give at most two opening intervals a day")
  .refine((list) => list.length < 2 || list[1]!.open >= list[0]!.close, {
    message: "The second interval must start after the first ends",
  });

const isRealDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

export const HoursExceptionSchema = z.object({
  date: z.string().trim().refine(isRealDate, "Give a date such as 2026-12-25"),
  hours: DayHours,
  note: z.string().trim().max(80, "Use at most 80 characters").default(""),
});

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`).default("");

export const ProfileInput = z.object({
  tagline: text(160),
  timeZone: z
    .string({ message: "Choose a time zone" })
    .refine((v) => timeZoneList().includes(v), "Choose a time zone from the list"),
  currency: z
    .string({ message: "Choose a currency" })
    .trim()
    .toUpperCase()
    .refine((v) => /^[A-Z]{3}$/.test(v) && (currencies ?? Intl.supportedValuesOf("currency")).includes(v), {
      message: "Choose an ISO 4217 currency such as EUR or USD",
    }),
  address: z
    .object({
      street: text(200),
      locality: text(100),
      region: text(100),
      postalCode: text(20),
      country: z
        .string()
        .trim()
        .toUpperCase()
        .default("")
        .refine((v) => v === "" || countryList().some((c) => c.code === v), "Choose a country from the list"),
    })
    .default({ street: "", locality: "", region: "", postalCode: "", country: "" }),
  phone: z
    .string()
    .trim()
    .max(40, "Use at most 40 characters")
    .refine((v) => v === "" || /^\+?[0-9 ()./-]{5,}$/.test(v), "Give a phone number such as +44 20 7946 0000")
    .default(""),
  email: z
    .string()
    .trim()
    .max(254)
    .refine(
      (v) => v === "" || z.string().email().safeParse(v).success,
      "Give an e-mail address such as hello@example.com",
    )
    .default(""),
  hours: z.object({
    mon: DayHours.default([]),
    tue: DayHours.default([]),
    wed: DayHours.default([]),
    thu: DayHours.default([]),
    fri: DayHours.default([]),
    sat: DayHours.default([]),
    sun: DayHours.default([]),
  }),
  exceptions: z
    .array(HoursExceptionSchema)
    .max(MAX_EXCEPTIONS, `Keep at most ${MAX_EXCEPTIONS} exceptions; remove past ones first`)
    .default([])
    .refine((list) => new Set(list.map((e) => e.date)).size === list.length, "Each date can have one exception only"),
});
export type ProfileInput = z.input<typeof ProfileInput>;

function parseJson<T>(value: string, fallback: T): T {
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

function toProfile(row: SiteProfilesTable | undefined): BusinessProfile {
  if (!row) return DEFAULT_PROFILE;
  return {
    tagline: row.tagline,
    timeZone: row.time_zone,
    currency: row.currency,
    address: {
      street: row.street,
      locality: row.locality,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
    },
    phone: row.phone,
    email: row.email,
    hours: { ...EMPTY_WEEK, ...parseJson<Partial<WeeklyHours>>(row.opening_hours, {}) },
    exceptions: parseJson<HoursException[]>(row.hours_exceptions, []),
    updatedAt: row.updated_at,
  };
}

/**
 * The business profile as public pages read it, remembered until its `settings` tag is purged (every save of it
 * purges that tag in its transaction; ADR 031).
 */
export function rememberedProfile(
  services: Pick<AppLoadContext["services"], "db" | "pageCache">,
  workspaceId: string,
): Promise<BusinessProfile> {
  return services.pageCache.remember(
    JSON.stringify(["profile", workspaceId]),
    [cacheTags.settings(workspaceId), cacheTags.workspace(workspaceId)],
    () => profileOf(services.db, workspaceId).get(),
  );
}

export function profileOf(db: Db, workspaceId: string) {
  const row = () => db.selectFrom("site_profiles").selectAll().where("workspace_id", "=", workspaceId);
  return {
    async get(): Promise<BusinessProfile> {
      return toProfile(await row().executeTakeFirst());
    },

    /** Validates and saves the whole profile (exceptions sorted by date), with an audit event. */
    async save(actorUserId: string | null, input: unknown): Promise<BusinessProfile> {
      const parsed = ProfileInput.safeParse(input);
      if (!parsed.success) {
        throw invalid(
          "Check the highlighted fields",
          parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message })),
        );
      }
      const v = parsed.data;
      const exceptions = [...v.exceptions].sort((a, b) => a.date.localeCompare(b.date));
      const columns = {
        tagline: v.tagline,
        time_zone: v.timeZone,
        currency: v.currency,
        street: v.address.street,
        locality: v.address.locality,
        region: v.address.region,
        postal_code: v.address.postalCode,
        country: v.address.country,
        phone: v.phone,
        email: v.email,
        opening_hours: JSON.stringify(v.hours),
        hours_exceptions: JSON.stringify(exceptions),
        updated_at: isoNow(),
      };
      // Every page's footer and structured data show the profile (`settings`, ADR 026).
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.settings(workspaceId));
        await trx
          .insertInto("site_profiles")
          .values({ workspace_id: workspaceId, ...columns })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet(columns))
          .execute();
        if (actorUserId) {
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "site.profile.updated",
            actorUserId,
            detail: { timeZone: v.timeZone, currency: v.currency },
          });
        }
      });
      return toProfile(await row().executeTakeFirst());
    },

    /** Adds (or replaces, on the same date) one exception, keeping the rest of the profile. */
    async addException(actorUserId: string | null, input: unknown): Promise<BusinessProfile> {
      const parsed = HoursExceptionSchema.safeParse(input);
      if (!parsed.success) {
        throw invalid(
          "Check the exception's fields",
          parsed.error.issues.map((i) => ({
            field: ["exception", ...i.path.map(String)].join("."),
            message: i.message,
          })),
        );
      }
      const current = await this.get();
      const exceptions = [...current.exceptions.filter((e) => e.date !== parsed.data.date), parsed.data];
      if (exceptions.length > MAX_EXCEPTIONS) {
        const message = `Keep at most ${MAX_EXCEPTIONS} exceptions; remove past ones first`;
        throw invalid(message, [{ field: "exception.date", message }]);
      }
      return this.save(actorUserId, { ...profileInputOf(current), exceptions });
    },

    async removeException(actorUserId: string | null, date: string): Promise<BusinessProfile> {
      const current = await this.get();
      const exceptions = current.exceptions.filter((e) => e.date !== date);
      return this.save(actorUserId, { ...profileInputOf(current), exceptions });
    },
  };
}

/** A saved profile as `ProfileInput`, to save it again with a change. */
export function profileInputOf(profile: BusinessProfile): ProfileInput {
  return {
    tagline: profile.tagline,
    timeZone: profile.timeZone,
    currency: profile.currency,
    address: profile.address,
    phone: profile.phone,
    email: profile.email,
    hours: profile.hours,
    exceptions: profile.exceptions,
  };
}

// --- Public presentation -----------------------------------------------------------------------------------------

/** "07:30" → "7:30", "18:00" → "18:00" (24-hour, as most of the world reads opening hours). */
function shortTime(t: string): string {
  return t.replace(/^0(\d)/, "$1");
}

function intervalsText(list: Interval[]): string {
  return list.length === 0 ? "Closed" : list.map((i) => `${shortTime(i.open)}–${shortTime(i.close)}`).join(", ");
}

export interface HoursLine {
  /** "Monday – Friday", "Saturday". */
  days: string;
  hours: string;
}

/** Consecutive days with the same hours, grouped: what a footer shows. Empty when no hours are set. */
export function weeklyHoursLines(hours: WeeklyHours): HoursLine[] {
  if (DAYS.every((d) => hours[d].length === 0)) return [];
  const lines: { from: Day; to: Day; hours: string }[] = [];
  for (const day of DAYS) {
    const text = intervalsText(hours[day]);
    const last = lines.at(-1);
    if (last && last.hours === text) last.to = day;
    else lines.push({ from: day, to: day, hours: text });
  }
  return lines.map((l) => ({
    days: l.from === l.to ? DAY_NAMES[l.from] : `${DAY_NAMES[l.from]} – ${DAY_NAMES[l.to]}`,
    hours: l.hours,
  }));
}

// Building an Intl.DateTimeFormat costs far more than formatting with one, and every public page's footer
// formats dates: one formatter per time zone, made on first use (the zones are IANA's, a bounded set).
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const EXCEPTION_LABEL = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string, at: Date = now()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}

export interface ExceptionLine {
  date: string;
  /** "Thursday 25 December". */
  label: string;
  hours: string;
  note: string;
}

/** Exceptions from today (in the profile's zone) up to `days` ahead, for the footer and contact page. */
export function upcomingExceptions(profile: BusinessProfile, days = 45, at: Date = now()): ExceptionLine[] {
  const today = todayIn(profile.timeZone, at);
  const until = new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const label = EXCEPTION_LABEL;
  return profile.exceptions
    .filter((e) => e.date >= today && e.date <= until)
    .map((e) => ({
      date: e.date,
      label: label.format(new Date(`${e.date}T00:00:00Z`)),
      hours: intervalsText(e.hours),
      note: e.note,
    }));
}

/** The address as lines, empty parts left out. */
export function addressLines(profile: BusinessProfile): string[] {
  const a = profile.address;
  const country = a.country ? (countryList().find((c) => c.code === a.country)?.name ?? a.country) : "";
  const cityLine = [a.postalCode, a.locality].filter(Boolean).join(" ");
  return [a.street, [cityLine, a.region].filter(Boolean).join(", "), country].filter(Boolean);
}

/**
 * schema.org `LocalBusiness` for the layout's structured data: name, address, contact, weekly hours and the
 * upcoming exceptions as `specialOpeningHoursSpecification`.
 */
export function localBusinessJsonLd(
  profile: BusinessProfile,
  site: { name: string; url: string; logo?: string | null; image?: string | null },
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${site.url}#business`,
    name: site.name,
    url: site.url,
  };
  if (profile.tagline) data.description = profile.tagline;
  if (site.logo) data.logo = site.logo;
  if (site.image) data.image = site.image;
  if (profile.phone) data.telephone = profile.phone;
  if (profile.email) data.email = profile.email;
  if (profile.currency) data.currenciesAccepted = profile.currency;
  const a = profile.address;
  if (a.street || a.locality || a.country) {
    data.address = {
      "@type": "PostalAddress",
      ...(a.street ? { streetAddress: a.street } : {}),
      ...(a.locality ? { addressLocality: a.locality } : {}),
      ...(a.region ? { addressRegion: a.region } : {}),
      ...(a.postalCode ? { postalCode: a.postalCode } : {}),
      ...(a.country ? { addressCountry: a.country } : {}),
    };
  }
  const specs = DAYS.flatMap((day) =>
    profile.hours[day].map((i) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: `https://schema.org/${DAY_NAMES[day]}`,
      opens: i.open,
      closes: i.close,
    })),
  );
  if (specs.length > 0) data.openingHoursSpecification = specs;
  const special = upcomingExceptions(profile, 365).flatMap((e) =>
    e.hours === "Closed"
      ? [
          {
            "@type": "OpeningHoursSpecification",
            validFrom: e.date,
            validThrough: e.date,
            opens: "00:00",
            closes: "00:00",
          },
        ]
      : (profile.exceptions.find((x) => x.date === e.date)?.hours ?? []).map((i) => ({
          "@type": "OpeningHoursSpecification",
          validFrom: e.date,
          validThrough: e.date,
          opens: i.open,
          closes: i.close,
        })),
  );
  if (special.length > 0) data.specialOpeningHoursSpecification = special;
  return data;
}
