/** How the inbox shows a message's time: in the workspace's time zone (its business profile), as mail programs do. */

// One set of formatters per time zone, made on first use: building an Intl.DateTimeFormat costs far more than
// formatting with one.
const formats = new Map<
  string,
  {
    full: Intl.DateTimeFormat;
    sameYear: Intl.DateTimeFormat;
    otherYear: Intl.DateTimeFormat;
    year: Intl.DateTimeFormat;
  }
>();

function formatsFor(timeZone: string) {
  let found = formats.get(timeZone);
  if (!found) {
    found = {
      full: new Intl.DateTimeFormat("en-GB", {
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZoneName: "short",
        timeZone,
      }),
      sameYear: new Intl.DateTimeFormat("en-GB", {
        day: "numeric",
        month: "short",
        hour: "2-digit",
        minute: "2-digit",
        timeZone,
      }),
      otherYear: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone }),
      year: new Intl.DateTimeFormat("en-GB", { year: "numeric", timeZone }),
    };
    formats.set(timeZone, found);
  }
  return found;
}

/** "24 Nov 2026, 07:27 GMT": the date and time where the business is. */
export const receivedAt = (iso: string, timeZone: string) => formatsFor(timeZone).full.format(new Date(iso));

/** The first words of a message, on one line. */
export function excerpt(text: string, max = 140): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** A list's short form, as mail programs show it: "24 Nov, 07:27" this year, "3 Mar 2025" before. */
export function receivedShort(iso: string, now: Date, timeZone: string): string {
  const f = formatsFor(timeZone);
  const date = new Date(iso);
  return f.year.format(date) === f.year.format(now) ? f.sameYear.format(date) : f.otherYear.format(date);
}
