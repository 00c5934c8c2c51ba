/** How the inbox shows a message's time: the date and time in UTC until workspaces have a time zone (issue 13's profile). */
const dateTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

export const receivedAt = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;

/** The first words of a message, on one line. */
export function excerpt(text: string, max = 140): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

const sameYear = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const otherYear = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** A list's short form, as mail programs show it: "24 Nov, 07:27" this year, "3 Mar 2025" before. */
export function receivedShort(iso: string, now: Date): string {
  const date = new Date(iso);
  return date.getUTCFullYear() === now.getUTCFullYear() ? sameYear.format(date) : otherYear.format(date);
}
