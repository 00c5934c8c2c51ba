/**
 * The demo's branding and business profile (Harbor Bakery): warm bakery colours, Fraunces headings over DM Sans
 * body text, the demo's logo, favicon and social image, an address by the harbour, opening hours with a lunch
 * break on Saturday, and a holiday. The lead's demo composer calls it with the files module's demo media.
 */
import type { Db } from "~db/client";
import type { MediaItem } from "~/modules/files/media.server";
import { now } from "~/lib/clock.server";
import { brandingOf } from "./branding.server";
import { profileOf } from "./profile.server";

/** The next 25 December on or after today (a date exception that is always upcoming in the demo). */
function nextChristmas(at: Date = now()): string {
  const year = at.getUTCMonth() === 11 && at.getUTCDate() > 26 ? at.getUTCFullYear() + 1 : at.getUTCFullYear();
  return `${year}-12-25`;
}

export async function seedDemoBrand(db: Db, workspaceId: string, media: Record<string, MediaItem | undefined> = {}) {
  await brandingOf(db, workspaceId).save(null, {
    logoId: media.logo?.id ?? null,
    faviconId: media.favicon?.id ?? null,
    socialImageId: media.social?.id ?? media.hero?.id ?? null,
    colors: { brand: "#9a3412", accent: "#f2c14e", background: "#fffaf3", text: "#2b1d14" },
    headingFont: "fraunces",
    bodyFont: "dm-sans",
    corners: "soft",
  });
  const christmas = nextChristmas();
  const boxingDay = christmas.replace(/-25$/, "-26");
  await profileOf(db, workspaceId).save(null, {
    tagline: "Sourdough, pastries and good coffee by the harbour since 2009.",
    timeZone: "Europe/London",
    currency: "GBP",
    address: {
      street: "12 Quayside",
      locality: "Whitby",
      region: "North Yorkshire",
      postalCode: "YO21 3PJ",
      country: "GB",
    },
    phone: "+44 1947 600 123",
    email: "hello@harborbakery.example",
    hours: {
      mon: [],
      tue: [{ open: "07:30", close: "17:00" }],
      wed: [{ open: "07:30", close: "17:00" }],
      thu: [{ open: "07:30", close: "17:00" }],
      fri: [{ open: "07:30", close: "18:00" }],
      sat: [
        { open: "08:00", close: "12:30" },
        { open: "13:30", close: "16:00" },
      ],
      sun: [{ open: "09:00", close: "13:00" }],
    },
    exceptions: [
      { date: christmas, hours: [], note: "Christmas Day" },
      { date: boxingDay, hours: [{ open: "10:00", close: "14:00" }], note: "Boxing Day" },
    ],
  });
}
