// /website/profile — "Business profile": what the business is and how to reach it (address, phone, e-mail),
// its time zone and currency, weekly opening hours and exceptions to them. Shown in the site's footer, on its
// contact page and in its structured data; read later by the shop, bookings and chat. Admins only.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { invalid } from "~/lib/errors";
import { type FormResult, type FormValues, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import {
  countryList,
  currencyList,
  profileOf,
  timeZoneList,
  todayIn,
  type Interval,
} from "~/modules/sites/profile.server";
import { DAY_NAMES, DAYS, type Day } from "~/modules/sites/hours";
import { ConfirmForm } from "~/ui/confirm-form";
import { Field, FormMessage } from "~/ui/form";
import profileStyles from "~/styles/profile-form.css?url";

export const meta: MetaFunction = () => [{ title: "Business profile · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: profileStyles }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const profile = await profileOf(context.services.db, workspace.id).get();
  return {
    site: { name: workspace.name, slug: workspace.slug },
    profile,
    today: todayIn(profile.timeZone),
    timeZones: timeZoneList(),
    currencies: currencyList(),
    countries: countryList(),
  };
});

type ProfileResult = FormResult & { values?: FormValues };

function intervals(values: FormValues, prefix: string): Interval[] {
  const list: Interval[] = [];
  for (const n of [1, 2]) {
    const open = values[`${prefix}.open${n}`]?.trim() ?? "";
    const close = values[`${prefix}.close${n}`]?.trim() ?? "";
    if (open || close) list.push({ open, close });
  }
  return list;
}

function profileFromForm(values: FormValues, exceptions: unknown) {
  return {
    tagline: values.tagline ?? "",
    timeZone: values.timeZone,
    currency: values.currency,
    address: {
      street: values.street ?? "",
      locality: values.locality ?? "",
      region: values.region ?? "",
      postalCode: values.postalCode ?? "",
      country: values.country ?? "",
    },
    phone: values.phone ?? "",
    email: values.email ?? "",
    hours: Object.fromEntries(DAYS.map((d) => [d, intervals(values, d)])),
    exceptions,
  };
}

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const profiles = profileOf(context.services.db, workspace.id);
  return runForm(
    request,
    context,
    async (values): Promise<ProfileResult> => {
      switch (values.intent) {
        case "save": {
          const current = await profiles.get();
          await profiles.save(session.user.id, profileFromForm(values, current.exceptions));
          return {
            ok: true,
            intent: "save",
            message: "Business profile saved. Your site shows it from the next visit.",
          };
        }
        case "add-exception": {
          const closed = values.closed === "on";
          await profiles.addException(session.user.id, {
            date: values.date ?? "",
            hours: closed ? [] : [{ open: values.open ?? "", close: values.close ?? "" }],
            note: values.note ?? "",
          });
          return { ok: true, intent: "add-exception", message: `Exception for ${values.date} saved.` };
        }
        case "remove-exception":
          await profiles.removeException(session.user.id, values.date ?? "");
          return { ok: true, intent: "remove-exception", message: `Exception for ${values.date} removed.` };
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => ({ values }),
  );
});

function DayRow({
  day,
  hours,
  values,
  errors,
}: {
  day: Day;
  hours: Interval[];
  values?: FormValues;
  errors: Record<string, string>;
}) {
  const value = (key: string, fallback: string) => values?.[`${day}.${key}`] ?? fallback;
  const error = Object.entries(errors).find(([k]) => k === `hours.${day}` || k.startsWith(`hours.${day}.`))?.[1];
  const errorId = `hours-${day}-error`;
  const input = (key: string, fallback: string, label: string) => (
    <input
      type="time"
      name={`${day}.${key}`}
      defaultValue={value(key, fallback)}
      aria-label={`${DAY_NAMES[day]}: ${label}`}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
    />
  );
  return (
    <tr>
      <th scope="row">{DAY_NAMES[day]}</th>
      <td>
        <span className="time-pair">
          {input("open1", hours[0]?.open ?? "", "opens")}
          <span aria-hidden="true">–</span>
          {input("close1", hours[0]?.close ?? "", "closes")}
        </span>
      </td>
      <td>
        <span className="time-pair">
          {input("open2", hours[1]?.open ?? "", "opens again")}
          <span aria-hidden="true">–</span>
          {input("close2", hours[1]?.close ?? "", "closes again")}
        </span>
        {error ? (
          <p className="field-error" id={errorId} role="alert">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

export default function BusinessProfile() {
  const { site, profile, today, timeZones, currencies, countries } = useLoaderData<typeof loader>();
  const result = useActionData<ProfileResult>();
  const navigation = useNavigation();
  const saveErrors = result?.intent === "save" ? (result.fieldErrors ?? {}) : {};
  const saveValues = result?.intent === "save" && !result.ok ? result.values : undefined;
  const exceptionErrors = result?.intent === "add-exception" ? (result.fieldErrors ?? {}) : {};
  const exceptionValues = result?.intent === "add-exception" && !result.ok ? result.values : undefined;
  const v = (key: string, fallback: string) => saveValues?.[key] ?? fallback;
  const exceptionError = (key: string) =>
    Object.entries(exceptionErrors).find(([k]) => k === `exception.${key}` || k.startsWith(`exception.${key}.`))?.[1];
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const upcoming = profile.exceptions.filter((e) => e.date >= today);
  const past = profile.exceptions.length - upcoming.length;
  const hasErrors = Object.keys(saveErrors).length > 0 || Object.keys(exceptionErrors).length > 0;

  return (
    <>
      <h1>Business profile</h1>
      <p>
        How customers find and reach <strong>{site.name}</strong>. It appears in your site&apos;s footer and contact
        page, and tells search engines your address and opening hours. <a href={`/${site.slug}`}>View your site</a>
      </p>
      {result && !(hasErrors && !result.ok) ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}
      {result && !result.ok && hasErrors ? <FormMessage message={result.message} /> : null}

      <Form method="post" key={`profile-${profile.updatedAt ?? "new"}`}>
        <input type="hidden" name="intent" value="save" />
        <section className="panel" aria-labelledby="about-heading">
          <h2 id="about-heading">About</h2>
          <Field
            label="Tagline"
            name="tagline"
            defaultValue={v("tagline", profile.tagline)}
            error={saveErrors.tagline}
            hint="One sentence about the business, shown in the footer and in search results."
          />
        </section>

        <section className="panel" aria-labelledby="contact-heading">
          <h2 id="contact-heading">Address and contact</h2>
          <Field
            label="Street address"
            name="street"
            autoComplete="street-address"
            defaultValue={v("street", profile.address.street)}
            error={saveErrors["address.street"]}
          />
          <div className="field-row">
            <Field
              label="Postal code"
              name="postalCode"
              autoComplete="postal-code"
              defaultValue={v("postalCode", profile.address.postalCode)}
              error={saveErrors["address.postalCode"]}
            />
            <Field
              label="Town or city"
              name="locality"
              autoComplete="address-level2"
              defaultValue={v("locality", profile.address.locality)}
              error={saveErrors["address.locality"]}
            />
          </div>
          <div className="field-row">
            <Field
              label="Region or state"
              name="region"
              autoComplete="address-level1"
              defaultValue={v("region", profile.address.region)}
              error={saveErrors["address.region"]}
            />
            <div className="field">
              <label htmlFor="field-country">Country</label>
              <select
                id="field-country"
                name="country"
                defaultValue={v("country", profile.address.country)}
                aria-invalid={saveErrors["address.country"] ? true : undefined}
              >
                <option value="">Not given</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
              {saveErrors["address.country"] ? <p className="field-error">{saveErrors["address.country"]}</p> : null}
            </div>
          </div>
          <div className="field-row">
            <Field
              label="Phone"
              name="phone"
              type="tel"
              autoComplete="tel"
              defaultValue={v("phone", profile.phone)}
              error={saveErrors.phone}
              hint="With the country code, e.g. +44 20 7946 0000."
            />
            <Field
              label="E-mail"
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={v("email", profile.email)}
              error={saveErrors.email}
              hint="Shown publicly. Contact form messages arrive in your inbox either way."
            />
          </div>
        </section>

        <section className="panel" aria-labelledby="region-heading">
          <h2 id="region-heading">Time zone and currency</h2>
          <div className="field-row">
            <div className="field">
              <label htmlFor="field-timeZone">Time zone</label>
              <select
                id="field-timeZone"
                name="timeZone"
                defaultValue={v("timeZone", profile.timeZone)}
                aria-invalid={saveErrors.timeZone ? true : undefined}
                aria-describedby="field-timeZone-hint"
              >
                {timeZones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone.replace(/_/g, " ")}
                  </option>
                ))}
              </select>
              <p className="hint" id="field-timeZone-hint">
                Opening hours, bookings and dates on your site are in this zone.
              </p>
              {saveErrors.timeZone ? <p className="field-error">{saveErrors.timeZone}</p> : null}
            </div>
            <div className="field">
              <label htmlFor="field-currency">Currency</label>
              <select
                id="field-currency"
                name="currency"
                defaultValue={v("currency", profile.currency)}
                aria-invalid={saveErrors.currency ? true : undefined}
                aria-describedby="field-currency-hint"
              >
                {currencies.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code} — {c.name}
                  </option>
                ))}
              </select>
              <p className="hint" id="field-currency-hint">
                Prices in your shop and bookings are in this currency.
              </p>
              {saveErrors.currency ? <p className="field-error">{saveErrors.currency}</p> : null}
            </div>
          </div>
        </section>

        <section className="panel" aria-labelledby="hours-heading">
          <h2 id="hours-heading">Opening hours</h2>
          <p className="hint">
            Leave a day empty when you are closed. Use the second pair for a break in the day (e.g. closed for lunch).
          </p>
          <div className="table-scroll">
            <table className="hours-table">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Open – close</th>
                  <th scope="col">Then open – close (optional)</th>
                </tr>
              </thead>
              <tbody>
                {DAYS.map((day) => (
                  <DayRow key={day} day={day} hours={profile.hours[day]} values={saveValues} errors={saveErrors} />
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <p>
          <button type="submit" disabled={saving}>
            {saving ? "Saving…" : "Save business profile"}
          </button>
        </p>
      </Form>

      <section className="panel" aria-labelledby="exceptions-heading">
        <h2 id="exceptions-heading">Holidays and special hours</h2>
        <p className="hint">
          Days when your hours differ from the usual week: public holidays, a late opening, a closed day. Your site
          shows those in the coming weeks.
        </p>
        {upcoming.length === 0 ? (
          <p className="empty">No upcoming exceptions. Add one below, e.g. a holiday when you are closed.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Hours</th>
                  <th scope="col">Note</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {upcoming.map((e) => (
                  <tr key={e.date}>
                    <td>{e.date}</td>
                    <td>{e.hours.length === 0 ? "Closed" : e.hours.map((i) => `${i.open}–${i.close}`).join(", ")}</td>
                    <td>{e.note || "—"}</td>
                    <td>
                      <ConfirmForm
                        confirm={`Remove the exception for ${e.date}?`}
                        fields={{ intent: "remove-exception", date: e.date }}
                      >
                        <button type="submit" className="secondary" aria-label={`Remove the exception for ${e.date}`}>
                          Remove
                        </button>
                      </ConfirmForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {past > 0 ? <p className="hint">{past} past exceptions are kept and no longer shown.</p> : null}

        <h3>Add an exception</h3>
        <Form method="post" className="exception-form" key={`exception-${profile.exceptions.length}-${result?.ok}`}>
          <input type="hidden" name="intent" value="add-exception" />
          <div className="field-row">
            <Field
              label="Date"
              name="date"
              type="date"
              defaultValue={exceptionValues?.date ?? ""}
              error={exceptionError("date")}
              required
            />
            <Field
              label="Note"
              name="note"
              defaultValue={exceptionValues?.note ?? ""}
              error={exceptionError("note")}
              hint="e.g. Christmas Day"
            />
          </div>
          <div className="field">
            <label className="choice">
              <input
                type="checkbox"
                name="closed"
                defaultChecked={exceptionValues ? exceptionValues.closed === "on" : true}
              />{" "}
              Closed all day
            </label>
          </div>
          <div className="field-row">
            <Field
              label="Opens (if not closed)"
              name="open"
              type="time"
              defaultValue={exceptionValues?.open ?? ""}
              error={exceptionErrors["exception.hours.0.open"] ?? exceptionErrors["exception.hours"]}
            />
            <Field
              label="Closes"
              name="close"
              type="time"
              defaultValue={exceptionValues?.close ?? ""}
              error={exceptionErrors["exception.hours.0.close"]}
            />
          </div>
          <button type="submit">Add exception</button>
        </Form>
      </section>
    </>
  );
}
