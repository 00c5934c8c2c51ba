/**
 * iCalendar (RFC 5545) for bookings (ADR 036): the invitation attached to a booking's e-mails (RFC 5546's
 * METHOD:REQUEST and METHOD:CANCEL, one UID per booking and a SEQUENCE that grows with each change, so a
 * calendar moves or removes the event it already has instead of adding another) and a host's subscribed feed.
 * Plain functions, no server imports: the text rules (escaping, 75-octet folding, CRLF) are unit-tested here.
 */

export interface IcsPerson {
  name: string;
  email?: string;
}

export interface IcsEvent {
  uid: string;
  sequence: number;
  /** ISO-8601 instants; written in UTC with `Z`, so no VTIMEZONE is needed and no client guesses a zone. */
  start: string;
  end: string;
  /** When this version of the event was written. */
  stamp: string;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  status?: "CONFIRMED" | "TENTATIVE" | "CANCELLED";
  organizer?: IcsPerson;
  attendee?: IcsPerson;
}

export interface IcsCalendar {
  method?: "REQUEST" | "CANCEL" | "PUBLISH";
  /** A subscribed feed's display name (X-WR-CALNAME, read by Google, Apple and Outlook). */
  name?: string;
  events: readonly IcsEvent[];
}

const PRODID = "-//Atrium//Scheduling//EN";
const encoder = new TextEncoder();

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, every line break as `\n`. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * A parameter value (§3.2): quoted when it holds `:`, `;` or `,`. A double quote cannot appear even quoted and
 * control characters are not allowed at all, so both are dropped rather than breaking the line's syntax.
 */
export function paramValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/["\u0000-\u001f\u007f]/g, "");
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds a content line to at most 75 octets per physical line (§3.1), continuation lines starting with one
 * space. Counted in UTF-8 octets and cut only between code points, so a name in any script arrives intact.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first physical line holds 75 octets; each continuation 74 after its leading space.
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

/** `2026-03-29T07:00:00.000Z` → `20260329T070000Z`. */
export function icsDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new Error(`not an instant: ${iso}`);
  return d
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

function person(property: "ORGANIZER" | "ATTENDEE", p: IcsPerson, extra: string[] = []): string | null {
  // Without an address the property has no value to carry (its value is a mailto: URI).
  if (!p.email) return null;
  return [property, `CN=${paramValue(p.name)}`, ...extra].join(";") + `:mailto:${p.email}`;
}

function eventLines(e: IcsEvent): string[] {
  const lines = [
    "BEGIN:VEVENT",
    `UID:${e.uid}`,
    `SEQUENCE:${Math.max(0, Math.floor(e.sequence))}`,
    `DTSTAMP:${icsDateTime(e.stamp)}`,
    `DTSTART:${icsDateTime(e.start)}`,
    `DTEND:${icsDateTime(e.end)}`,
    `SUMMARY:${escapeText(e.summary)}`,
  ];
  if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
  if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
  if (e.url) lines.push(`URL:${e.url}`);
  if (e.status) lines.push(`STATUS:${e.status}`);
  const organizer = e.organizer && person("ORGANIZER", e.organizer);
  if (organizer) lines.push(organizer);
  const attendee = e.attendee && person("ATTENDEE", e.attendee, ["ROLE=REQ-PARTICIPANT", "RSVP=FALSE"]);
  if (attendee) lines.push(attendee);
  lines.push("END:VEVENT");
  return lines;
}

/** A VCALENDAR object: CRLF line ends (including the last), every line folded. */
export function renderCalendar(calendar: IcsCalendar): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", `PRODID:${PRODID}`, "CALSCALE:GREGORIAN"];
  if (calendar.method) lines.push(`METHOD:${calendar.method}`);
  if (calendar.name) lines.push(`X-WR-CALNAME:${escapeText(calendar.name)}`);
  for (const e of calendar.events) lines.push(...eventLines(e));
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** Google Calendar's "add event" page for one event, prefilled. */
export function googleCalendarUrl(e: Pick<IcsEvent, "start" | "end" | "summary" | "description" | "location">) {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: e.summary,
    dates: `${icsDateTime(e.start)}/${icsDateTime(e.end)}`,
  });
  if (e.description) params.set("details", e.description);
  if (e.location) params.set("location", e.location);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** Outlook on the web's compose page for one event, prefilled. */
export function outlookCalendarUrl(e: Pick<IcsEvent, "start" | "end" | "summary" | "description" | "location">) {
  const utc = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");
  const params = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: e.summary,
    startdt: utc(e.start),
    enddt: utc(e.end),
  });
  if (e.description) params.set("body", e.description);
  if (e.location) params.set("location", e.location);
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}
