// /{site}/profile — the signed-in customer's own account (ADR 029): name and phone, e-mail change (the new
// address gets a code; the account moves once it is entered), notification settings and marketing consent, an
// optional password, their sessions ("sign out everywhere"), and their data: download it, or erase it.
// Requires the site's customer session; never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { PRIVATE, mailOrigin } from "~/modules/customers/portal.server";
import { eraseShopCustomer } from "~/modules/commerce/privacy.server";
import { confirmEmailChange, ownProfile, setOwnPassword, updateOwnProfile } from "~/modules/customers/profile.server";
import { clearCustomerCookie, endAllCustomerSessions, sessionsOfCustomer } from "~/modules/customers/sessions.server";
import { requestEmailChange } from "~/modules/customers/sign-in.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { Field, FormNotice, PortalFrame, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const sessions = await sessionsOfCustomer(context.services.db, site.workspace.id, customer.id);
  const changed = new URL(request.url).searchParams.get("email") === "changed";
  return { profile: ownProfile(customer), sessions, base: linkBase(context, site.workspace.slug), changed };
});

type Answer = FormResult & { challengeId?: string; newEmail?: string };

const checked = (value: string | undefined) => value === "on" || value === "true";

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const { db } = context.services;
  const base = linkBase(context, site.workspace.slug);
  return runForm(
    request,
    context,
    async (values): Promise<Answer | Response> => {
      switch (values.intent) {
        case "details":
          await updateOwnProfile(db, customer, { name: values.name ?? "", phone: values.phone || null }, "portal");
          return { ok: true, intent: "details", message: "Your details are saved." };
        case "preferences":
          await updateOwnProfile(
            db,
            customer,
            {
              notifications: {
                ticketReplies: checked(values.ticketReplies),
                orderUpdates: checked(values.orderUpdates),
                bookingReminders: checked(values.bookingReminders),
              },
              marketingConsent: checked(values.marketing),
            },
            "portal",
          );
          return { ok: true, intent: "preferences", message: "Your e-mail preferences are saved." };
        case "email": {
          const sent = await requestEmailChange(context, site.workspace, customer, values.email ?? "", {
            origin: await mailOrigin(request, context),
          });
          return {
            ok: true,
            intent: "email",
            challengeId: sent.challengeId,
            newEmail: sent.email,
            message: `We sent a code to ${sent.email}. Enter it below to move your account to that address.`,
          };
        }
        case "email-code": {
          const moved = await confirmEmailChange(db, customer, values.challenge ?? "", values.code ?? "");
          return { ok: true, intent: "email", message: `Your account now uses ${moved.email}.` };
        }
        case "password":
          await setOwnPassword(
            db,
            customer,
            { password: values.password ?? "", confirm: values.confirm ?? "" },
            site.workspace.name,
          );
          return {
            ok: true,
            intent: "password",
            message: values.password ? "Your password is set." : "Your password is removed: sign in with a code.",
          };
        case "sign-out-everywhere":
          await endAllCustomerSessions(db, site.workspace.id, customer.id);
          return redirect(`${base}/login`, {
            status: 303,
            headers: { "Set-Cookie": clearCustomerCookie(context, site.workspace), ...PRIVATE },
          });
        case "erase":
          if (values.confirm !== "erase") {
            return {
              ok: false,
              intent: "erase",
              message: "Tick the box to confirm",
              fieldErrors: { confirm: "Tick the box to confirm that you want your data erased" },
            };
          }
          await eraseShopCustomer(context.services, site.workspace.id, customer.id, { customer: true });
          return redirect(`${base}/login?erased=1`, {
            status: 303,
            headers: { "Set-Cookie": clearCustomerCookie(context, site.workspace), ...PRIVATE },
          });
        default:
          return { ok: false, message: "Choose what to save" };
      }
    },
    (values) => ({
      intent: values.intent === "email-code" ? "email" : values.intent,
      ...(values.intent === "email-code" ? { challengeId: values.challenge, newEmail: values.newEmail } : {}),
    }),
  );
});

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return { ...PRIVATE, ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
};

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Profile · ${chrome.name}` : "Profile" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

function Notice({ answer, intent }: { answer?: Answer; intent: string }) {
  return answer?.intent === intent ? <FormNotice result={answer} /> : null;
}

export default function Profile() {
  const { profile, sessions, base, changed } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  const answer = useActionData<Answer>();
  const errors = (intent: string) => (answer?.intent === intent ? (answer.fieldErrors ?? {}) : {});
  const awaitingCode = answer?.intent === "email" && answer.challengeId;
  return (
    <PortalFrame base={base} current="/profile" who={profile.name || profile.email}>
      <h1 className="portal__title">Profile</h1>
      {changed ? (
        <p className="portal-notice portal-notice--ok" role="status">
          Your account now uses {profile.email}.
        </p>
      ) : null}

      <section className="portal-panel" aria-labelledby="details-heading">
        <h2 id="details-heading">Your details</h2>
        <Notice answer={answer} intent="details" />
        <form method="post" className="portal-form portal-form--grid">
          <Field label="Name" name="name" error={errors("details").name}>
            {(props) => <input {...props} autoComplete="name" maxLength={120} defaultValue={profile.name} />}
          </Field>
          <Field label="Phone" name="phone" error={errors("details").phone} hint="Optional">
            {(props) => (
              <input {...props} type="tel" autoComplete="tel" maxLength={40} defaultValue={profile.phone ?? ""} />
            )}
          </Field>
          <div className="portal-form__actions">
            <button type="submit" name="intent" value="details" className="site-button">
              Save details
            </button>
          </div>
        </form>
      </section>

      <section className="portal-panel" aria-labelledby="email-heading">
        <h2 id="email-heading">E-mail address</h2>
        <p className="portal-panel__lead">
          You sign in with <strong>{profile.email}</strong>. To change it, enter the new address: we send it a code, and
          your account moves once you enter it.
        </p>
        <Notice answer={answer} intent="email" />
        {awaitingCode ? (
          <form method="post" className="portal-form">
            <input type="hidden" name="challenge" value={answer.challengeId} />
            <input type="hidden" name="newEmail" value={answer.newEmail ?? ""} />
            <Field
              label={`Code sent to ${answer.newEmail ?? "the new address"}`}
              name="code"
              error={errors("email").code}
            >
              {(props) => (
                <input
                  {...props}
                  className="site-input portal-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  required
                />
              )}
            </Field>
            <div className="portal-form__actions">
              <button type="submit" name="intent" value="email-code" className="site-button">
                Confirm new address
              </button>
            </div>
          </form>
        ) : (
          <form method="post" className="portal-form">
            <Field label="New e-mail address" name="email" error={errors("email").email}>
              {(props) => <input {...props} type="email" autoComplete="email" maxLength={254} required />}
            </Field>
            <div className="portal-form__actions">
              <button type="submit" name="intent" value="email" className="site-button site-button--secondary">
                Send a code
              </button>
            </div>
          </form>
        )}
      </section>

      <section className="portal-panel" aria-labelledby="preferences-heading">
        <h2 id="preferences-heading">E-mails from {chrome?.name ?? "us"}</h2>
        <Notice answer={answer} intent="preferences" />
        <form method="post" className="portal-form">
          <fieldset className="portal-checks">
            <legend className="site-label">Tell me by e-mail when</legend>
            <label>
              <input type="checkbox" name="ticketReplies" defaultChecked={profile.notifications.ticketReplies} /> they
              answer one of my support requests
            </label>
            <label>
              <input type="checkbox" name="orderUpdates" defaultChecked={profile.notifications.orderUpdates} /> my
              orders change
            </label>
            <label>
              <input type="checkbox" name="bookingReminders" defaultChecked={profile.notifications.bookingReminders} />{" "}
              a booking of mine is coming up
            </label>
          </fieldset>
          <fieldset className="portal-checks">
            <legend className="site-label">News and offers</legend>
            <label>
              <input type="checkbox" name="marketing" defaultChecked={profile.marketingConsent} /> Send me news and
              offers. I can stop them at any time.
            </label>
            {profile.marketingConsentAt ? (
              <p className="site-hint">
                {profile.marketingConsent ? "Agreed" : "Withdrawn"} on{" "}
                {formatWhen(profile.marketingConsentAt, timeZone)}.
              </p>
            ) : null}
          </fieldset>
          <div className="portal-form__actions">
            <button type="submit" name="intent" value="preferences" className="site-button">
              Save preferences
            </button>
          </div>
        </form>
      </section>

      <section className="portal-panel" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <p className="portal-panel__lead">
          {profile.hasPassword
            ? "You can sign in with your password or with a code by e-mail. Leave both fields empty and save to remove the password."
            : "You sign in with a code by e-mail. Set a password if you prefer to type one."}
        </p>
        <Notice answer={answer} intent="password" />
        <form method="post" className="portal-form portal-form--grid">
          <input type="text" name="username" autoComplete="username" defaultValue={profile.email} hidden readOnly />
          <Field label="New password" name="password" error={errors("password").password} hint="At least 10 characters">
            {(props) => <input {...props} type="password" autoComplete="new-password" />}
          </Field>
          <Field label="Type it again" name="confirm" error={errors("password").confirm}>
            {(props) => <input {...props} type="password" autoComplete="new-password" />}
          </Field>
          <div className="portal-form__actions">
            <button type="submit" name="intent" value="password" className="site-button site-button--secondary">
              {profile.hasPassword ? "Change password" : "Set password"}
            </button>
          </div>
        </form>
      </section>

      <section className="portal-panel" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <ul className="portal-sessions">
          {sessions.map((s, i) => (
            <li key={`${s.createdAt}-${i}`}>
              <span>{describeAgent(s.userAgent, s.kind)}</span>
              <span className="portal-muted">Last active {formatWhen(s.lastSeenAt, timeZone)}</span>
            </li>
          ))}
        </ul>
        <form method="post">
          <button
            type="submit"
            name="intent"
            value="sign-out-everywhere"
            className="site-button site-button--secondary"
          >
            Sign out everywhere
          </button>
        </form>
      </section>

      <section className="portal-panel portal-panel--danger" aria-labelledby="data-heading">
        <h2 id="data-heading">Your data</h2>
        <p className="portal-panel__lead">
          Download everything {chrome?.name ?? "this business"} holds about you, or erase it. Erasing signs you out,
          deletes your support requests and messages, and removes your name and contact details. It cannot be undone.
        </p>
        <p>
          <a className="site-button site-button--secondary" href={`${base}/profile/export`} download>
            Download my data (JSON)
          </a>
        </p>
        <Notice answer={answer} intent="erase" />
        <form method="post" className="portal-form">
          <label className="portal-confirm">
            <input
              type="checkbox"
              name="confirm"
              value="erase"
              aria-invalid={errors("erase").confirm ? true : undefined}
            />{" "}
            I understand that my data will be erased for good.
          </label>
          {errors("erase").confirm ? <p className="site-error">{errors("erase").confirm}</p> : null}
          <div className="portal-form__actions">
            <button type="submit" name="intent" value="erase" className="site-button portal-button--danger">
              Erase my data
            </button>
          </div>
        </form>
      </section>
    </PortalFrame>
  );
}

/** "Chrome on macOS" from a user agent, roughly; a bearer token is "An app". */
function describeAgent(agent: string | null, kind: string): string {
  if (kind === "bearer") return "An app";
  if (!agent) return "A browser";
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Firefox\//.test(agent)
      ? "Firefox"
      : /Chrome\//.test(agent)
        ? "Chrome"
        : /Safari\//.test(agent)
          ? "Safari"
          : "A browser";
  const system = /Android/.test(agent)
    ? "Android"
    : /iPhone|iPad/.test(agent)
      ? "iOS"
      : /Mac OS X/.test(agent)
        ? "macOS"
        : /Windows/.test(agent)
          ? "Windows"
          : /Linux/.test(agent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}
