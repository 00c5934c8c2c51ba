// /scheduling/availability — who is booked and when (ADR 036): each staff member or resource with their time zone,
// weekly hours (up to two ranges a day, so a lunch break needs no JavaScript), dated exceptions (a closed day or a
// day's own hours), public holidays imported as closed days (previewed, then confirmed) and their iCalendar feed.
// Every member reads it; editors change it.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Temporal } from "temporal-polyfill";
import { now } from "~/lib/clock.server";
import { invalid } from "~/lib/errors";
import { type FormResult, type FormValues, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { HOST_KINDS, type HostInput } from "~/modules/scheduling/api";
import { hostFeedsOf } from "~/modules/scheduling/feed.server";
import { holidayCountries, publicHolidays } from "~/modules/scheduling/operator.server";
import { hostsOf, type BookingHost } from "~/modules/scheduling/services.server";
import { profileOf, timeZoneList } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { workspaceOf } from "~/modules/tenancy/workspaces.server";
import { SCHEDULING_TABS, WEEKDAYS } from "~/console/scheduling";
import { ConfirmForm } from "~/ui/confirm-form";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction = () => [{ title: "Availability · Atrium" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

/** Ranges a day the form offers: enough for a morning and an afternoon around a break. */
const RANGES_A_DAY = 2;
const NEW_HOST_WEEK = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: "09:00", end: "17:00" }));

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const url = new URL(request.url);
  const canEdit = roleAtLeast(role, "editor");
  const [hosts, profile, members] = await Promise.all([
    hostsOf(db, workspace.id).list(),
    profileOf(db, workspace.id).get(),
    workspaceOf(db, workspace.id).listMembers(),
  ]);
  const asked = url.searchParams.get("host");
  const selected = asked === "new" && canEdit ? null : (hosts.find((h) => h.id === asked) ?? hosts[0] ?? null);
  const year = Temporal.Instant.fromEpochMilliseconds(now().getTime()).toZonedDateTimeISO(profile.timeZone).year;
  return {
    canEdit,
    creating: selected === null && canEdit,
    saved: url.searchParams.get("saved"),
    count: url.searchParams.get("n"),
    timeZone: profile.timeZone,
    country: profile.address.country,
    timeZones: timeZoneList(),
    countries: holidayCountries(),
    years: [year, year + 1],
    members: members.map((m) => ({ id: m.userId, email: m.email })),
    hosts: hosts.map((h) => ({ id: h.id, name: h.name, kind: h.kind, summary: weekSummary(h), timeZone: h.timeZone })),
    host: selected && {
      ...selected,
      overrides: selected.overrides.map((o) => ({
        ...o,
        when: Temporal.PlainDate.from(o.date).toLocaleString("en-GB", {
          weekday: "short",
          day: "numeric",
          month: "short",
          year: "numeric",
        }),
      })),
    },
  };
});

/** "Mon–Fri 09:00–17:00, Sat 10:00–14:00": a host's week in a line. */
function weekSummary(host: BookingHost): string {
  const short = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  const byDay = WEEKDAYS.map((d) =>
    host.weekly
      .filter((r) => r.weekday === d.n)
      .map((r) => `${r.start}–${r.end}`)
      .join(", "),
  );
  const parts: string[] = [];
  for (let i = 0; i < 7; i++) {
    if (!byDay[i]) continue;
    let j = i;
    while (j + 1 < 7 && byDay[j + 1] === byDay[i]) j++;
    parts.push(`${j > i ? `${short[i]}–${short[j]}` : short[i]} ${byDay[i]}`);
    i = j;
  }
  return parts.join("; ") || "No weekly hours";
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** The posted weekly table as rules, refused beside the field when a range is half filled or ends before it starts. */
function weeklyOf(values: FormValues) {
  const problems: { field: string; message: string }[] = [];
  const weekly: { weekday: number; start: string; end: string }[] = [];
  for (const { n } of WEEKDAYS) {
    for (let i = 0; i < RANGES_A_DAY; i++) {
      const f = (edge: string) => `w.${n}.${i}.${edge}`;
      const start = (values[f("start")] ?? "").trim().slice(0, 5);
      const end = (values[f("end")] ?? "").trim().slice(0, 5);
      if (!start && !end) continue;
      if (!start || !TIME.test(start)) problems.push({ field: f("start"), message: "Enter a start time, e.g. 09:00" });
      else if (!end || !TIME.test(end)) problems.push({ field: f("end"), message: "Enter an end time, e.g. 17:00" });
      else if (end <= start) problems.push({ field: f("end"), message: "End after the start" });
      else weekly.push({ weekday: n, start, end });
    }
  }
  return { weekly, problems };
}

const inputOf = (h: BookingHost): HostInput => ({
  name: h.name,
  kind: h.kind,
  userId: h.userId,
  timeZone: h.timeZone,
  weekly: h.weekly,
  overrides: h.overrides.map((o) => ({ date: o.date, ranges: o.ranges, label: o.label ?? "" })),
});

type Result = FormResult & {
  preview?: {
    country: string;
    countryName: string;
    year: number;
    days: { date: string; name: string; already: boolean }[];
  };
  feedUrl?: string;
  draft?: FormValues;
};

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const hosts = hostsOf(db, workspace.id);
  const actor = session.user.id;
  return runForm(
    request,
    context,
    async (values): Promise<Result | Response> => {
      const hostId = values.hostId ?? "";
      const back = (saved: string, extra = "") =>
        redirect(`/scheduling/availability?host=${hostId}&saved=${saved}${extra}`, 303);
      switch (values.intent) {
        case "save": {
          const { weekly, problems } = weeklyOf(values);
          if (problems.length) throw invalid("Check the highlighted fields", problems);
          const existing = hostId ? await hosts.get(hostId) : null;
          const input: HostInput = {
            name: values.name ?? "",
            kind: (HOST_KINDS as readonly string[]).includes(values.kind ?? "")
              ? (values.kind as HostInput["kind"])
              : "staff",
            userId: values.userId || null,
            timeZone: values.timeZone ?? "",
            weekly,
            overrides: existing ? inputOf(existing).overrides : [],
          };
          const saved = existing ? await hosts.update(actor, existing.id, input) : await hosts.create(actor, input);
          return redirect(`/scheduling/availability?host=${saved.id}&saved=${existing ? "updated" : "created"}`, 303);
        }
        case "add-exception": {
          const host = await hosts.get(hostId);
          const date = values.date ?? "";
          const closed = values.exceptionKind !== "hours";
          const problems: { field: string; message: string }[] = [];
          if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) problems.push({ field: "date", message: "Choose the date" });
          const start = (values.start ?? "").slice(0, 5);
          const end = (values.end ?? "").slice(0, 5);
          if (!closed) {
            if (!TIME.test(start)) problems.push({ field: "start", message: "Enter the opening time, e.g. 10:00" });
            else if (!TIME.test(end)) problems.push({ field: "end", message: "Enter the closing time, e.g. 14:00" });
            else if (end <= start) problems.push({ field: "end", message: "End after the start" });
          }
          if (problems.length) throw invalid("Check the highlighted fields", problems);
          const input = inputOf(host);
          input.overrides = [
            ...(input.overrides ?? []).filter((o) => o.date !== date),
            { date, ranges: closed ? [] : [{ start, end }], label: (values.label ?? "").trim().slice(0, 120) },
          ];
          await hosts.update(actor, host.id, input);
          return back("exception");
        }
        case "remove-exception": {
          const host = await hosts.get(hostId);
          const input = inputOf(host);
          input.overrides = (input.overrides ?? []).filter((o) => o.date !== values.date);
          await hosts.update(actor, host.id, input);
          return back("exception-removed");
        }
        case "preview-holidays":
        case "import-holidays": {
          const host = await hosts.get(hostId);
          const year = Number(values.year);
          const country = values.country ?? "";
          const days = publicHolidays(country, year);
          const taken = new Set(host.overrides.map((o) => o.date));
          if (values.intent === "preview-holidays") {
            return {
              ok: true,
              intent: "preview-holidays",
              preview: {
                country,
                countryName: holidayCountries().find((c) => c.code === country)?.name ?? country,
                year,
                days: days.map((d) => ({ ...d, already: taken.has(d.date) })),
              },
            };
          }
          const added = days.filter((d) => !taken.has(d.date));
          const input = inputOf(host);
          input.overrides = [
            ...(input.overrides ?? []),
            ...added.map((d) => ({ date: d.date, ranges: [], label: d.name.slice(0, 120) })),
          ];
          await hosts.update(actor, host.id, input);
          return back("holidays", `&n=${added.length}`);
        }
        case "feed": {
          const host = await hosts.get(hostId);
          const feeds = hostFeedsOf(db, workspace.id);
          const made = host.hasFeed ? await feeds.rotate(actor, host.id) : await feeds.create(actor, host.id);
          // Shown once: only its hash is kept, so this answer is the one place the address exists.
          return { ok: true, intent: "feed", feedUrl: `${await publicOrigin(request, context)}${made.path}` };
        }
        case "feed-revoke": {
          await hostFeedsOf(db, workspace.id).revoke(actor, hostId);
          return back("feed-revoked");
        }
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => ({ draft: values }),
  );
});

const SAVED: Record<string, string> = {
  created: "Added. Give them a service on the Services page so they can be booked.",
  updated: "Hours saved. New bookings follow them at once; existing bookings stay as they are.",
  exception: "Date saved.",
  "exception-removed": "Date removed: the weekly hours apply again that day.",
  holidays: "Holidays added as closed days.",
  "feed-revoked": "Calendar feed turned off. The old address no longer works.",
};

export default function Availability() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const h = d.host;
  const errors = result?.fieldErrors ?? {};
  const draft = result?.intent === "save" ? result.draft : undefined;
  const savedMessage =
    d.saved === "holidays" ? `${d.count ?? 0} holidays added as closed days.` : d.saved ? SAVED[d.saved] : undefined;
  const weekly = h ? h.weekly : NEW_HOST_WEEK;
  const rangeValue = (day: number, i: number, edge: "start" | "end") => {
    if (draft) return draft[`w.${day}.${i}.${edge}`] ?? "";
    return weekly.filter((r) => r.weekday === day)[i]?.[edge] ?? "";
  };
  return (
    <>
      <div className="page-header">
        <h1>Availability</h1>
        {d.canEdit && d.hosts.length > 0 ? (
          <div className="page-actions">
            <Link className="button secondary" to="?host=new">
              Add staff member or resource
            </Link>
          </div>
        ) : null}
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />
      <FormMessage message={savedMessage} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />

      {d.hosts.length === 0 ? (
        <div className="empty">
          <p>
            <strong>Who is booked?</strong> Add each person who takes appointments, or each resource that is booked (a
            room, a chair, a court), with the hours they can be booked. A service is then delivered by one or more of
            them.
          </p>
        </div>
      ) : (
        <nav aria-label="Staff and resources" className="host-list">
          <ul>
            {d.hosts.map((x) => (
              <li key={x.id}>
                <Link to={`?host=${x.id}`} aria-current={h?.id === x.id ? "page" : undefined}>
                  <span className="host-name">
                    {x.name}
                    <span className="host-kind">{x.kind === "staff" ? "Staff" : "Resource"}</span>
                  </span>
                  <span className="host-summary">{x.summary}</span>
                  {x.timeZone !== d.timeZone ? <span className="host-summary">{x.timeZone}</span> : null}
                </Link>
              </li>
            ))}
            {d.creating ? (
              <li>
                <span className="host-new" aria-current="page">
                  New staff member or resource
                </span>
              </li>
            ) : null}
          </ul>
        </nav>
      )}

      {h || d.creating ? (
        // Keyed by the host and its last save, so moving to another host (or saving) shows its values, not the last typed.
        <Form
          key={`${h?.id ?? "new"}-${h?.updatedAt ?? ""}`}
          method="post"
          className="panel host-form"
          aria-labelledby="host-heading"
          noValidate
        >
          <h2 id="host-heading">{h ? h.name : "New staff member or resource"}</h2>
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="hostId" value={h?.id ?? ""} />
          <fieldset disabled={!d.canEdit} className="plain-fieldset">
            <legend className="visually-hidden">Details and weekly hours</legend>
            <div className="field-row">
              <Field
                label="Name"
                name="name"
                defaultValue={draft ? draft.name : (h?.name ?? "")}
                error={errors.name}
                required
                hint="As bookers see it, e.g. Mia, or Room 2."
              />
              <fieldset className="choice-list inline-choices">
                <legend>Kind</legend>
                {HOST_KINDS.map((k) => (
                  <label key={k}>
                    <input
                      type="radio"
                      name="kind"
                      value={k}
                      defaultChecked={(draft?.kind ?? h?.kind ?? "staff") === k}
                    />{" "}
                    {k === "staff" ? "Staff member" : "Resource (room, chair…)"}
                  </label>
                ))}
              </fieldset>
            </div>
            <div className="field-row">
              <DescribedField
                id="field-userId"
                label="Member account (optional)"
                error={errors.userId}
                hint="Links a staff member to their login, for their own notifications."
              >
                {(describedBy) => (
                  <select
                    id="field-userId"
                    name="userId"
                    defaultValue={draft ? draft.userId : (h?.userId ?? "")}
                    aria-describedby={describedBy}
                  >
                    <option value="">Not linked</option>
                    {d.members.map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.email}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
              <DescribedField
                id="field-timeZone"
                label="Time zone"
                error={errors.timeZone}
                hint="The hours below are in this zone; daylight-saving changes are followed."
              >
                {(describedBy) => (
                  <select
                    id="field-timeZone"
                    name="timeZone"
                    defaultValue={draft ? draft.timeZone : (h?.timeZone ?? d.timeZone)}
                    aria-describedby={describedBy}
                    aria-invalid={errors.timeZone ? true : undefined}
                  >
                    {d.timeZones.map((z) => (
                      <option key={z} value={z}>
                        {z}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
            </div>

            <h3>Weekly hours</h3>
            <p className="hint">
              Leave a day empty for a day off. Use the second range for a split day, e.g. 09:00–12:00 and 13:00–17:00.
            </p>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Weekly hours">
              <table className="customer-table week-table">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Hours</th>
                    <th scope="col">Second range (optional)</th>
                  </tr>
                </thead>
                <tbody>
                  {WEEKDAYS.map((day) => (
                    <tr key={day.n}>
                      <th scope="row">{day.name}</th>
                      {Array.from({ length: RANGES_A_DAY }, (_, i) => {
                        const f = (edge: string) => `w.${day.n}.${i}.${edge}`;
                        const err = errors[f("start")] ?? errors[f("end")];
                        const errId = `${f("x")}-error`;
                        return (
                          <td key={i}>
                            <div className="time-range">
                              <input
                                type="time"
                                name={f("start")}
                                defaultValue={rangeValue(day.n, i, "start")}
                                aria-label={`${day.name}${i ? ", second range" : ""}: from`}
                                aria-invalid={errors[f("start")] ? true : undefined}
                                aria-describedby={err ? errId : undefined}
                              />
                              <span aria-hidden="true">–</span>
                              <input
                                type="time"
                                name={f("end")}
                                defaultValue={rangeValue(day.n, i, "end")}
                                aria-label={`${day.name}${i ? ", second range" : ""}: until`}
                                aria-invalid={errors[f("end")] ? true : undefined}
                                aria-describedby={err ? errId : undefined}
                              />
                            </div>
                            {err ? (
                              <p className="field-error" id={errId} role="alert">
                                {err}
                              </p>
                            ) : null}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {errors.weekly ? <p className="field-error">{errors.weekly}</p> : null}
            {d.canEdit ? (
              <div className="form-actions">
                <button type="submit">{h ? "Save hours" : "Add"}</button>
                {!h && d.hosts.length > 0 ? <Link to="/scheduling/availability">Cancel</Link> : null}
              </div>
            ) : null}
          </fieldset>
        </Form>
      ) : null}

      {h ? (
        <>
          <section className="panel" aria-labelledby="exceptions-heading">
            <h2 id="exceptions-heading">Days off and special hours</h2>
            <p className="hint">
              A date here replaces that day's weekly hours: closed, or open only at the hours given.
            </p>
            {h.overrides.length === 0 ? (
              <p className="hint">No dates yet.</p>
            ) : (
              <div className="table-scroll" tabIndex={0} role="region" aria-label="Dates">
                <table className="customer-table">
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Hours</th>
                      <th scope="col">Note</th>
                      {d.canEdit ? (
                        <th scope="col">
                          <span className="visually-hidden">Remove</span>
                        </th>
                      ) : null}
                    </tr>
                  </thead>
                  <tbody>
                    {h.overrides.map((o) => (
                      <tr key={o.date}>
                        <td className="exception-date">{o.when}</td>
                        <td>
                          {o.ranges.length === 0 ? (
                            <span className="status-pill status-pill--cancelled">Closed</span>
                          ) : (
                            o.ranges.map((r) => `${r.start}–${r.end}`).join(", ")
                          )}
                        </td>
                        <td>{o.label || "—"}</td>
                        {d.canEdit ? (
                          <td className="amount">
                            <Form method="post">
                              <input type="hidden" name="hostId" value={h.id} />
                              <input type="hidden" name="date" value={o.date} />
                              <button type="submit" name="intent" value="remove-exception" className="text-button">
                                Remove<span className="visually-hidden"> {o.when}</span>
                              </button>
                            </Form>
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {d.canEdit ? (
              <Form key={h.updatedAt} method="post" className="exception-form" noValidate>
                <input type="hidden" name="intent" value="add-exception" />
                <input type="hidden" name="hostId" value={h.id} />
                <h3>Add a date</h3>
                <div className="exception-fields">
                  <Field label="Date" name="date" type="date" error={errors.date} />
                  <fieldset className="choice-list">
                    <legend>That day</legend>
                    <label>
                      <input type="radio" name="exceptionKind" value="closed" defaultChecked /> Closed
                    </label>
                    <label>
                      <input type="radio" name="exceptionKind" value="hours" /> Open at these hours
                    </label>
                  </fieldset>
                  <Field label="From" name="start" type="time" error={errors.start} />
                  <Field label="Until" name="end" type="time" error={errors.end} />
                  <Field label="Note (optional)" name="label" error={errors.label} hint="e.g. Training day" />
                </div>
                <button type="submit" className="secondary">
                  Add date
                </button>
              </Form>
            ) : null}
          </section>

          {d.canEdit ? (
            <section className="panel" aria-labelledby="holidays-heading">
              <h2 id="holidays-heading">Public holidays</h2>
              <p className="hint">
                Add a country's public holidays as closed days. You see the list before anything changes.
              </p>
              <Form method="post" className="inline-form">
                <input type="hidden" name="hostId" value={h.id} />
                <DescribedField id="field-country" label="Country" error={errors.country}>
                  {(describedBy) => (
                    <select
                      id="field-country"
                      name="country"
                      defaultValue={result?.preview?.country ?? d.country ?? ""}
                      aria-describedby={describedBy}
                    >
                      <option value="">Choose…</option>
                      {d.countries.map((c) => (
                        <option key={c.code} value={c.code}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  )}
                </DescribedField>
                <DescribedField id="field-year" label="Year" error={errors.year}>
                  {(describedBy) => (
                    <select
                      id="field-year"
                      name="year"
                      defaultValue={String(result?.preview?.year ?? d.years[0])}
                      aria-describedby={describedBy}
                    >
                      {d.years.map((y) => (
                        <option key={y} value={y}>
                          {y}
                        </option>
                      ))}
                    </select>
                  )}
                </DescribedField>
                <button type="submit" name="intent" value="preview-holidays" className="secondary">
                  Preview holidays
                </button>
              </Form>
              {result?.preview ? (
                <div className="holiday-preview" role="status">
                  <h3>
                    Public holidays in {result.preview.countryName}, {result.preview.year}
                  </h3>
                  {result.preview.days.length === 0 ? (
                    <p className="hint">None found for that year.</p>
                  ) : (
                    <ul className="holiday-list">
                      {result.preview.days.map((day) => (
                        <li key={day.date} className={day.already ? "already" : undefined}>
                          <span className="holiday-date">{day.date}</span> {day.name}
                          {day.already ? <span className="hint"> — already set, kept as it is</span> : null}
                        </li>
                      ))}
                    </ul>
                  )}
                  {result.preview.days.some((x) => !x.already) ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="import-holidays" />
                      <input type="hidden" name="hostId" value={h.id} />
                      <input type="hidden" name="country" value={result.preview.country} />
                      <input type="hidden" name="year" value={result.preview.year} />
                      <button type="submit">
                        Add {result.preview.days.filter((x) => !x.already).length} closed days for {h.name}
                      </button>
                    </Form>
                  ) : null}
                </div>
              ) : null}
            </section>
          ) : null}

          {d.canEdit ? (
            <section className="panel" aria-labelledby="feed-heading">
              <h2 id="feed-heading">Calendar feed</h2>
              <p className="hint">
                A private address to subscribe to in Google Calendar, Apple Calendar or Outlook, so {h.name}&apos;s
                bookings show there. It shows the service and the booker&apos;s name, never their contact details.
              </p>
              {result?.feedUrl ? (
                <div className="new-key" role="status">
                  <p>
                    <strong>Copy this address now:</strong> it is shown only once. Anyone with it can read the bookings,
                    so share it only with {h.name}.
                  </p>
                  <p className="key-line">
                    <code>{result.feedUrl}</code>
                  </p>
                </div>
              ) : null}
              <div className="page-actions">
                <Form method="post">
                  <input type="hidden" name="hostId" value={h.id} />
                  <button type="submit" name="intent" value="feed" className="secondary">
                    {h.hasFeed ? "Get a new feed link" : "Get calendar feed link"}
                  </button>
                </Form>
                {h.hasFeed ? (
                  <ConfirmForm
                    confirm={`Turn off ${h.name}'s calendar feed? Calendars subscribed to it stop updating.`}
                    fields={{ intent: "feed-revoke", hostId: h.id }}
                  >
                    <button type="submit" className="danger">
                      Revoke feed
                    </button>
                  </ConfirmForm>
                ) : null}
              </div>
              {h.hasFeed && !result?.feedUrl ? (
                <p className="hint">A feed is on. A new link replaces it: the old address stops working.</p>
              ) : null}
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
