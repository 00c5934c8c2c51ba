// /scheduling/services/{id} (and /scheduling/services/new) — one service's form (ADR 036): every setting of
// ServiceInput — its length and time grid, buffers, notice and window, places, price and deposit, where it happens,
// the questions asked when booking, cancellation and reschedule notice, approval, reminders — and who delivers it.
// The server validates; its refusals show beside their fields. Works without JavaScript. Editors change it.
import { MissingRecord } from "~/console/missing-record";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, type FormValues, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { slugify } from "~/lib/slug";
import { requireWorkspace } from "~/modules/access/operator.server";
import { moneyInput, parseMoney } from "~/modules/commerce/money";
import { LOCATION_KINDS, SERVICE_STATUSES, type ServiceInput } from "~/modules/scheduling/api";
import { hostsOf, servicesOf } from "~/modules/scheduling/services.server";
import { profileOf } from "~/modules/sites/profile.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { LOCATION_LABELS, SCHEDULING_TABS, SERVICE_STATUS_LABELS } from "~/console/scheduling";
import { DescribedField, Field, FormMessage } from "~/ui/form";
import { SectionTabs } from "~/ui/section-tabs";
import consoleShopCss from "~/styles/console-shop.css?url";
import consoleCustomersCss from "~/styles/console-customers.css?url";
import consoleSchedulingCss from "~/styles/console-scheduling.css?url";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.service ? data.service.name : "New service"} · Atrium` },
];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consoleCustomersCss },
  { rel: "stylesheet", href: consoleShopCss },
  { rel: "stylesheet", href: consoleSchedulingCss },
];

/** Question rows the form always offers: the service's own plus empty ones, up to ServiceInput's ten. */
const QUESTION_ROWS = 10;
const EMPTY_ROWS = 2;

export const loader = page("operator", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  const { db } = context.services;
  const id = params.serviceId ?? "new";
  const [service, hosts, profile] = await Promise.all([
    id === "new" ? null : servicesOf(db, workspace.id).get(id),
    hostsOf(db, workspace.id).list(),
    profileOf(db, workspace.id).get(),
  ]);
  const currency = service?.currency ?? profile.currency;
  return {
    canEdit: roleAtLeast(role, "editor"),
    currency,
    saved: new URL(request.url).searchParams.get("saved"),
    hosts: hosts.map((h) => ({ id: h.id, name: h.name, kind: h.kind, hours: h.weekly.length > 0 })),
    service: service && {
      ...service,
      price: moneyInput(service.price, currency),
      deposit: moneyInput(service.deposit, currency),
    },
  };
});

const NUMBER_FIELDS = [
  "durationMinutes",
  "intervalMinutes",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "noticeMinutes",
  "windowDays",
  "capacity",
  "cancelNoticeMinutes",
  "rescheduleNoticeMinutes",
  "holdMinutes",
  "reminderHours",
  "followUpHours",
] as const;

/**
 * The posted form as ServiceInput: numbers as numbers (an empty field takes the default), amounts in the
 * currency's decimals. What is not a number is refused here beside its field; the rest is ServiceInput's to judge.
 */
function serviceInput(values: FormValues, currency: string, hostIds: string[]): ServiceInput {
  const problems: { field: string; message: string }[] = [];
  const numbers: Record<string, number | undefined> = {};
  for (const field of NUMBER_FIELDS) {
    const text = (values[field] ?? "").trim();
    if (text === "") continue;
    const n = Number(text);
    if (!Number.isFinite(n)) problems.push({ field, message: "Enter a number" });
    else numbers[field] = n;
  }
  const amount = (field: "price" | "deposit") => {
    const text = (values[field] ?? "").trim();
    if (text === "") return 0;
    const minor = parseMoney(text, currency);
    if (minor === null)
      problems.push({ field, message: `Enter an amount in ${currency}, like ${moneyInput(4500, currency)}` });
    return minor ?? 0;
  };
  const price = amount("price");
  const deposit = amount("deposit");
  const questions = Array.from({ length: QUESTION_ROWS }, (_, i) => i)
    .map((i) => ({
      index: i,
      label: (values[`q.${i}.label`] ?? "").trim(),
      id: (values[`q.${i}.id`] ?? "").trim(),
      required: values[`q.${i}.required`] === "on",
      long: values[`q.${i}.long`] === "on",
    }))
    .filter((q) => q.label !== "");
  const used = new Set<string>();
  const withIds = questions.map((q) => {
    // A question keeps its id once saved (answers are stored under it); a new one's comes from its words.
    let id = q.id || slugify(q.label, "question").slice(0, 32).replace(/-+$/, "") || "question";
    for (let n = 2; used.has(id); n++) id = `${id.replace(/-\d+$/, "")}-${n}`;
    used.add(id);
    return { id, label: q.label, required: q.required, long: q.long };
  });
  if (problems.length) throw invalid("Check the highlighted fields", problems);
  return {
    name: values.name ?? "",
    slug: (values.slug ?? "").trim() || undefined,
    description: values.description ?? "",
    durationMinutes: numbers.durationMinutes as number,
    intervalMinutes: numbers.intervalMinutes,
    bufferBeforeMinutes: numbers.bufferBeforeMinutes,
    bufferAfterMinutes: numbers.bufferAfterMinutes,
    noticeMinutes: numbers.noticeMinutes,
    windowDays: numbers.windowDays,
    capacity: numbers.capacity,
    price,
    deposit,
    locationKind: values.locationKind as ServiceInput["locationKind"],
    locationDetail: values.locationDetail ?? "",
    questions: withIds,
    cancelNoticeMinutes: numbers.cancelNoticeMinutes,
    rescheduleNoticeMinutes: numbers.rescheduleNoticeMinutes,
    requiresApproval: values.requiresApproval === "on",
    holdMinutes: numbers.holdMinutes,
    reminderHours: numbers.reminderHours,
    followUpHours: numbers.followUpHours,
    status: (SERVICE_STATUSES as readonly string[]).includes(values.status ?? "")
      ? (values.status as ServiceInput["status"])
      : "active",
    hostIds,
  };
}

export const action = page("operator", async ({ request, params, context }: ActionFunctionArgs) => {
  const { session, workspace } = await requireWorkspace(request, context, "editor");
  const { db } = context.services;
  const id = params.serviceId === "new" ? null : (params.serviceId ?? null);
  const services = servicesOf(db, workspace.id);
  return runForm(
    request,
    context,
    async (values): Promise<Response> => {
      if (values.intent !== "save") throw invalid("Unknown action");
      const existing = id ? await services.get(id) : null;
      const currency = existing?.currency ?? (await profileOf(db, workspace.id).get()).currency;
      const hostIds = Object.keys(values)
        .filter((k) => k.startsWith("host.") && values[k] === "on")
        .map((k) => k.slice("host.".length));
      const input = serviceInput(values, currency, hostIds);
      const saved = existing
        ? await services.update(session.user.id, existing.id, input)
        : await services.create(session.user.id, input);
      return redirect(`/scheduling/services/${saved.id}?saved=${existing ? "updated" : "created"}`, 303);
    },
    // The operator's draft comes back with the refusal, so nothing typed is lost.
    (values) => ({ draft: values }),
  );
});

const SAVED: Record<string, string> = {
  created: "Service created. It can be booked on your site as soon as it is active and its hosts have hours.",
  updated: "Service saved.",
};

type Draft = Record<string, string>;

export default function ServiceEditor() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult & { draft?: Draft }>();
  const errors = result?.fieldErrors ?? {};
  const s = d.service;
  const draft = result?.draft;
  // After a refusal the form shows what was posted; otherwise the saved service, or the defaults of a new one.
  const v = (name: string, saved: string | number | undefined, fallback = ""): string =>
    draft ? (draft[name] ?? "") : saved !== undefined ? String(saved) : fallback;
  const on = (name: string, saved: boolean | undefined) => (draft ? draft[name] === "on" : (saved ?? false));
  const questions = s?.questions ?? [];
  const rows = Math.min(QUESTION_ROWS, questions.length + EMPTY_ROWS);
  const chosen = (hostId: string) =>
    draft ? draft[`host.${hostId}`] === "on" : s ? s.hostIds.includes(hostId) : d.hosts.length === 1;
  const problem = (prefix: string) =>
    Object.entries(errors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1];
  return (
    <>
      <p className="back-link">
        <Link to="/scheduling/services">← Services</Link>
      </p>
      <div className="page-header">
        <h1>{s ? s.name : "New service"}</h1>
        {s ? (
          <div className="page-actions">
            <span className={`status-pill status-pill--${s.status}`}>{SERVICE_STATUS_LABELS[s.status]}</span>
          </div>
        ) : null}
      </div>
      <SectionTabs label="Scheduling" tabs={SCHEDULING_TABS} />
      <FormMessage message={d.saved ? SAVED[d.saved] : undefined} tone="success" />
      <FormMessage message={result?.ok === false ? result.message : undefined} />
      {d.hosts.length === 0 ? (
        <div className="empty">
          <p>
            <strong>Add who is booked first.</strong> A service is delivered by a staff member or a resource with weekly
            hours. <Link to="/scheduling/availability">Add them on the availability page</Link>.
          </p>
        </div>
      ) : null}

      <Form method="post" className="product-form" noValidate>
        <input type="hidden" name="intent" value="save" />
        <fieldset disabled={!d.canEdit} className="plain-fieldset">
          <legend className="visually-hidden">Service</legend>
          <div className="product-form__main">
            <section className="panel" aria-labelledby="basics-heading">
              <h2 id="basics-heading">The service</h2>
              <Field
                label="Name"
                name="name"
                defaultValue={v("name", s?.name)}
                required
                error={errors.name}
                hint="As customers see it, e.g. Deep tissue massage."
              />
              <DescribedField
                id="field-description"
                label="Description"
                error={errors.description}
                hint="What it is and what to expect. Shown on the booking page."
              >
                {(describedBy) => (
                  <textarea
                    id="field-description"
                    name="description"
                    rows={4}
                    defaultValue={v("description", s?.description)}
                    aria-describedby={describedBy}
                    aria-invalid={errors.description ? true : undefined}
                  />
                )}
              </DescribedField>
              <div className="field-row">
                <Field
                  label="Length (minutes)"
                  name="durationMinutes"
                  type="number"
                  defaultValue={v("durationMinutes", s?.durationMinutes, "60")}
                  error={errors.durationMinutes}
                  hint="From 5 minutes to 12 hours."
                />
                <Field
                  label="Start times every (minutes)"
                  name="intervalMinutes"
                  type="number"
                  defaultValue={v("intervalMinutes", s?.intervalMinutes)}
                  error={errors.intervalMinutes}
                  hint="e.g. 30 offers 9:00, 9:30, 10:00… Empty: the length."
                />
              </div>
            </section>

            <section className="panel" aria-labelledby="price-heading">
              <h2 id="price-heading">Price and deposit</h2>
              <div className="field-row">
                <Field
                  label="Price"
                  name="price"
                  prefix={d.currency}
                  defaultValue={v("price", s?.price)}
                  error={errors.price}
                  hint="Per place. Empty or 0: free."
                />
                <Field
                  label="Deposit"
                  name="deposit"
                  prefix={d.currency}
                  defaultValue={v("deposit", s?.deposit)}
                  error={errors.deposit}
                  hint="Paid by card when booking; the time is held meanwhile. At most the price."
                />
              </div>
              <Field
                label="Hold an unpaid deposit for (minutes)"
                name="holdMinutes"
                type="number"
                defaultValue={v("holdMinutes", s?.holdMinutes, "5")}
                error={errors.holdMinutes}
                hint="While the booker pays, nobody else can take the time. 1 to 60 minutes."
              />
            </section>

            <section className="panel" aria-labelledby="times-heading">
              <h2 id="times-heading">When it can be booked</h2>
              <div className="field-row">
                <Field
                  label="Buffer before (minutes)"
                  name="bufferBeforeMinutes"
                  type="number"
                  defaultValue={v("bufferBeforeMinutes", s?.bufferBeforeMinutes, "0")}
                  error={errors.bufferBeforeMinutes}
                  hint="Kept free before each booking, to prepare."
                />
                <Field
                  label="Buffer after (minutes)"
                  name="bufferAfterMinutes"
                  type="number"
                  defaultValue={v("bufferAfterMinutes", s?.bufferAfterMinutes, "0")}
                  error={errors.bufferAfterMinutes}
                  hint="Kept free after each booking, to tidy up."
                />
              </div>
              <div className="field-row">
                <Field
                  label="Minimum notice (minutes)"
                  name="noticeMinutes"
                  type="number"
                  defaultValue={v("noticeMinutes", s?.noticeMinutes, "0")}
                  error={errors.noticeMinutes}
                  hint="How soon before the start it can still be booked, e.g. 120 for two hours."
                />
                <Field
                  label="Bookable up to (days ahead)"
                  name="windowDays"
                  type="number"
                  defaultValue={v("windowDays", s?.windowDays, "60")}
                  error={errors.windowDays}
                  hint="1 to 365 days."
                />
              </div>
              <Field
                label="Places per time"
                name="capacity"
                type="number"
                defaultValue={v("capacity", s?.capacity, "1")}
                error={errors.capacity}
                hint="1 for an appointment; more for a class or a group."
              />
            </section>

            <section className="panel" aria-labelledby="questions-heading">
              <h2 id="questions-heading">Questions when booking</h2>
              <p className="hint">
                Asked on the booking form after the name and e-mail. Leave a row empty to ask nothing more; clear a
                question to remove it.
              </p>
              {problem("questions") ? (
                <p className="field-error" role="alert">
                  {problem("questions")}
                </p>
              ) : null}
              <div className="question-rows">
                {Array.from({ length: rows }, (_, i) => {
                  const q = questions[i];
                  return (
                    <div key={i} className="question-row">
                      <input
                        type="hidden"
                        name={`q.${i}.id`}
                        value={draft ? (draft[`q.${i}.id`] ?? "") : (q?.id ?? "")}
                      />
                      <Field
                        label={`Question ${i + 1}`}
                        name={`q.${i}.label`}
                        defaultValue={v(`q.${i}.label`, q?.label)}
                        error={errors[`questions.${i}.label`]}
                        hint={i === 0 && !q ? "e.g. Anything we should know before your visit?" : undefined}
                      />
                      <div className="question-flags">
                        <label>
                          <input
                            type="checkbox"
                            name={`q.${i}.required`}
                            defaultChecked={on(`q.${i}.required`, q?.required)}
                          />{" "}
                          Required<span className="visually-hidden"> (question {i + 1})</span>
                        </label>
                        <label>
                          <input type="checkbox" name={`q.${i}.long`} defaultChecked={on(`q.${i}.long`, q?.long)} />{" "}
                          Long answer<span className="visually-hidden"> (question {i + 1})</span>
                        </label>
                      </div>
                    </div>
                  );
                })}
              </div>
              {rows < QUESTION_ROWS ? (
                <p className="hint">Save to get more rows (up to {QUESTION_ROWS} questions).</p>
              ) : null}
            </section>

            <section className="panel" aria-labelledby="changes-heading">
              <h2 id="changes-heading">Changes and messages</h2>
              <div className="field-row">
                <Field
                  label="Cancellation notice (minutes)"
                  name="cancelNoticeMinutes"
                  type="number"
                  defaultValue={v("cancelNoticeMinutes", s?.cancelNoticeMinutes, "0")}
                  error={errors.cancelNoticeMinutes}
                  hint="Bookers can cancel themselves up to this long before the start, e.g. 1440 for a day. 0: any time."
                />
                <Field
                  label="Reschedule notice (minutes)"
                  name="rescheduleNoticeMinutes"
                  type="number"
                  defaultValue={v("rescheduleNoticeMinutes", s?.rescheduleNoticeMinutes, "0")}
                  error={errors.rescheduleNoticeMinutes}
                  hint="The same for moving it. You can always change it here."
                />
              </div>
              <div className="field-row">
                <Field
                  label="Reminder (hours before)"
                  name="reminderHours"
                  type="number"
                  defaultValue={v("reminderHours", s?.reminderHours, "24")}
                  error={errors.reminderHours}
                  hint="An e-mail before the start. 0: none. At most 168 (a week)."
                />
                <Field
                  label="Follow-up (hours after)"
                  name="followUpHours"
                  type="number"
                  defaultValue={v("followUpHours", s?.followUpHours, "0")}
                  error={errors.followUpHours}
                  hint="A thank-you e-mail after the end. 0: none."
                />
              </div>
            </section>
          </div>

          <div className="product-form__side">
            <section className="panel">
              <DescribedField
                id="field-status"
                label="Status"
                hint="Only active services can be booked. Archive one to stop it and keep its bookings."
                error={errors.status}
              >
                {(describedBy) => (
                  <select
                    id="field-status"
                    name="status"
                    defaultValue={v("status", s?.status, "active")}
                    aria-describedby={describedBy}
                  >
                    {SERVICE_STATUSES.map((st) => (
                      <option key={st} value={st}>
                        {SERVICE_STATUS_LABELS[st]}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
              <div className="checkbox-field">
                <label>
                  <input
                    type="checkbox"
                    name="requiresApproval"
                    defaultChecked={on("requiresApproval", s?.requiresApproval)}
                  />{" "}
                  I approve each booking
                </label>
                <p className="hint">Bookings wait for you to approve or decline them, and hold their time meanwhile.</p>
              </div>
              {d.canEdit ? (
                <button type="submit" className="product-form__save">
                  {s ? "Save service" : "Create service"}
                </button>
              ) : null}
            </section>

            <section className="panel" aria-labelledby="hosts-heading">
              <h2 id="hosts-heading">Delivered by</h2>
              <fieldset
                className="choice-list"
                aria-describedby={errors.hostIds ? "hosts-error" : undefined}
                aria-invalid={errors.hostIds ? true : undefined}
              >
                <legend className="visually-hidden">Delivered by</legend>
                {d.hosts.map((h) => (
                  <label key={h.id}>
                    <input type="checkbox" name={`host.${h.id}`} defaultChecked={chosen(h.id)} /> {h.name}
                    {h.kind === "resource" ? " (resource)" : ""}
                    {h.hours ? "" : " — no hours yet"}
                  </label>
                ))}
              </fieldset>
              {errors.hostIds ? (
                <p className="field-error" id="hosts-error" role="alert">
                  {errors.hostIds}
                </p>
              ) : null}
              <p className="hint">
                A booking goes to the first of them who is free.{" "}
                <Link to="/scheduling/availability">Hours and staff</Link>
              </p>
            </section>

            <section className="panel" aria-labelledby="where-heading">
              <h2 id="where-heading">Where</h2>
              <DescribedField id="field-locationKind" label="Location" error={errors.locationKind}>
                {(describedBy) => (
                  <select
                    id="field-locationKind"
                    name="locationKind"
                    defaultValue={v("locationKind", s?.locationKind, "in_person")}
                    aria-describedby={describedBy}
                  >
                    {LOCATION_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {LOCATION_LABELS[k]}
                      </option>
                    ))}
                  </select>
                )}
              </DescribedField>
              <Field
                label="Address, phone number or video link"
                name="locationDetail"
                defaultValue={v("locationDetail", s?.locationDetail)}
                error={errors.locationDetail}
                hint="An address is shown on the site; a number or a link only in the booker's confirmation."
              />
            </section>

            <section className="panel" aria-labelledby="address-heading">
              <h2 id="address-heading">Booking page address</h2>
              <Field
                label="Address"
                name="slug"
                defaultValue={v("slug", s?.slug)}
                error={errors.slug}
                hint={
                  s
                    ? "Lowercase letters, digits and dashes. Links shared before a change stop working."
                    : "Lowercase letters, digits and dashes; made from the name if you leave it empty."
                }
              />
            </section>
          </div>
        </fieldset>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <MissingRecord what="Service" back={{ to: "/scheduling/services", label: "Back to services" }} />;
}
