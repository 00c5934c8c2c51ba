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
