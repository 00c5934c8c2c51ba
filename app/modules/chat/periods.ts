/**
 * Periods named in plain English ("today", "last week", "the past 30 days", "on Friday", "in March", "2026-12-24")
 * as calendar days in the business's time zone, turned into UTC instants through Temporal (never offset
 * arithmetic: a day across a clock change is 23 or 25 hours). The assistant's tools ask "what happened in this
 * period"; the model engine passes the same words through the tools' inputs.
 */
import { Temporal } from "temporal-polyfill";

export interface Period {
  /** First day, inclusive (YYYY-MM-DD in the zone). */
  from: string;
  /** Day after the last, exclusive. */
  until: string;
  /** How a sentence names it: "today (Sun 6 Dec)", "last week (Mon 30 Nov – Sun 6 Dec)", "on Friday (Fri 11 Dec)". */
  label: string;
  /** The words that named it in the text ("tomorrow", "next 14 days"). */
  phrase?: string;
}

export const PERIOD_WORDS = [
  "today",
  "yesterday",
  "tomorrow",
  "this week",
  "last week",
  "next week",
  "this month",
  "last month",
  "next month",
  "this year",
  "last year",
] as const;

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Capitalised words that name a time, not a person: "bookings for Tuesday" asks about a day, not a customer. */
const NAMED_TIMES = new Set([
  ...WEEKDAYS,
  ...MONTHS,
  "today",
  "todays",
  "tonight",
  "tomorrow",
  "tomorrows",
  "yesterday",
  "yesterdays",
  "weekend",
  "christmas",
  "easter",
]);

/** Whether `word` names a day, a month or a holiday ("Tuesday", "March", "Today's"), whatever its case. */
export function isPeriodWord(word: string): boolean {
  return NAMED_TIMES.has(word.toLowerCase().replace(/['’]/g, ""));
}

const dayLabel = (d: Temporal.PlainDate) =>
  d.toLocaleString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });

function span(from: Temporal.PlainDate, until: Temporal.PlainDate, name: string): Period {
  const last = until.subtract({ days: 1 });
  const days = from.equals(last) ? dayLabel(from) : `${dayLabel(from)} – ${dayLabel(last)}`;
  return { from: from.toString(), until: until.toString(), label: name === days ? name : `${name} (${days})` };
}

/** Today's date in `timeZone` at `at`. */
export function todayIn(timeZone: string, at: Date): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
}

/**
 * The period `text` names, or null when it names none; of several, the one named last ("today's bookings? and
 * tomorrow?" asks about tomorrow). Weeks start on Monday (ISO). A bare weekday is the next one ("on Friday": this
 * coming Friday, today if it is Friday) unless `past` says the question looks back ("sales on Friday"), then the
 * last one; a month likewise.
 */
export function parsePeriod(text: string, timeZone: string, at: Date, options: { past?: boolean } = {}): Period | null {
  const t = text.toLowerCase().replace(/['’]/g, "");
  const today = todayIn(timeZone, at);
  const monday = today.subtract({ days: today.dayOfWeek - 1 });
  const first = today.with({ day: 1 });
  const january = today.with({ month: 1, day: 1 });
  const capital = (w: string) => w.replace(/^./, (c) => c.toUpperCase());
  const days = (n: string) => Math.min(366, Math.max(1, Number(n)));

  const rules: [RegExp, (m: RegExpExecArray) => Period | null][] = [
    [
      /\b(\d{4}-\d{2}-\d{2})\b/g,
      (m) => {
        try {
          const day = Temporal.PlainDate.from(m[1]!, { overflow: "reject" });
          return span(day, day.add({ days: 1 }), `on ${day.toString()}`);
        } catch {
          return null;
        }
      },
    ],
    [
      /\b(?:last|past|previous)\s+(\d{1,3})\s+days?\b/g,
      (m) => span(today.subtract({ days: days(m[1]!) - 1 }), today.add({ days: 1 }), `in the last ${days(m[1]!)} days`),
    ],
    [
      /\b(?:next|coming)\s+(\d{1,3})\s+days?\b/g,
      (m) => span(today, today.add({ days: days(m[1]!) }), `in the next ${days(m[1]!)} days`),
    ],
    [
      /\btodays?\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b/g,
      () => span(today, today.add({ days: 1 }), "today"),
    ],
    [/\byesterdays?\b/g, () => span(today.subtract({ days: 1 }), today, "yesterday")],
    [/\btomorrows?\b/g, () => span(today.add({ days: 1 }), today.add({ days: 2 }), "tomorrow")],
    [/\bthis week\b/g, () => span(monday, monday.add({ days: 7 }), "this week")],
    // The weekend is this week's Saturday and Sunday (still this one on a Sunday); looking back, the last one.
    [
      /\b(?:this|the|at the|over the|on the)\s+weekend\b/g,
      () => {
        const saturday = monday.add({ days: 5 });
        const from =
          options.past && Temporal.PlainDate.compare(saturday, today) > 0 ? saturday.subtract({ days: 7 }) : saturday;
        return span(from, from.add({ days: 2 }), "at the weekend");
      },
    ],
    [/\bnext weekend\b/g, () => span(monday.add({ days: 12 }), monday.add({ days: 14 }), "next weekend")],
    [/\blast weekend\b/g, () => span(monday.subtract({ days: 2 }), monday, "last weekend")],
    [/\blast week\b/g, () => span(monday.subtract({ days: 7 }), monday, "last week")],
    [/\bnext week\b/g, () => span(monday.add({ days: 7 }), monday.add({ days: 14 }), "next week")],
    [/\bthis month\b/g, () => span(first, first.add({ months: 1 }), "this month")],
    [/\blast month\b/g, () => span(first.subtract({ months: 1 }), first, "last month")],
    [/\bnext month\b/g, () => span(first.add({ months: 1 }), first.add({ months: 2 }), "next month")],
    [/\bthis year\b/g, () => span(january, january.add({ years: 1 }), "this year")],
    [/\blast year\b/g, () => span(january.subtract({ years: 1 }), january, "last year")],
    [
      new RegExp(`\\b(${WEEKDAYS.join("|")})\\b`, "g"),
      (m) => {
        const weekday = WEEKDAYS.indexOf(m[1]!);
        const ahead = (weekday + 1 - today.dayOfWeek + 7) % 7;
        const day = options.past ? today.subtract({ days: (7 - ahead) % 7 }) : today.add({ days: ahead });
        return span(day, day.add({ days: 1 }), `on ${capital(m[1]!)}`);
      },
    ],
    [
      new RegExp(`\\b(?:in|during|for)\\s+(${MONTHS.join("|")})\\b`, "g"),
      (m) => {
        const month = MONTHS.indexOf(m[1]!);
        let start = today.with({ month: month + 1, day: 1 });
        // "Sales in March" asked in January means last March; "bookings in March", the coming one.
        if (options.past && Temporal.PlainDate.compare(start, today) > 0) start = start.subtract({ years: 1 });
        if (!options.past && Temporal.PlainDate.compare(start.add({ months: 1 }), today) <= 0)
          start = start.add({ years: 1 });
        return span(start, start.add({ months: 1 }), `in ${capital(m[1]!)}`);
      },
    ],
  ];

  let found: { index: number; period: Period | null } | undefined;
  for (const [pattern, build] of rules) {
    for (const m of t.matchAll(pattern)) {
      if (!found || m.index >= found.index) {
        const period = build(m as RegExpExecArray);
        found = { index: m.index, period: period && { ...period, phrase: m[0] } };
      }
    }
  }
  return found?.period ?? null;
}

/** The UTC instants (ISO strings) at which a period starts and ends in `timeZone`. */
export function periodInstants(
  period: Pick<Period, "from" | "until">,
  timeZone: string,
): { fromIso: string; untilIso: string } {
  const at = (date: string) =>
    Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).toInstant().toString({ fractionalSecondDigits: 3 });
  return { fromIso: at(period.from), untilIso: at(period.until) };
}
