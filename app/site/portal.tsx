/**
 * The customer portal's pieces (ADR 029): the sign-in card, the portal's frame (its navigation beside the page,
 * a row of tabs on phones), and a labelled field with its error. Plain HTML forms: public pages ship no
 * JavaScript, so everything here works by posting and reading the answer.
 */
import type { ReactNode } from "react";
import { useId } from "react";
import type { FormResult } from "~/lib/forms.server";

/** Portal sections, in the navigation's order. Scheduling and billing add bookings and invoices. */
export const PORTAL_SECTIONS = [
  { path: "/account", label: "Overview" },
  { path: "/orders", label: "Orders" },
  { path: "/account/my-bookings", label: "Bookings" },
  { path: "/billing", label: "Billing" },
  { path: "/tickets", label: "Support" },
  { path: "/saved", label: "Saved" },
  { path: "/profile", label: "Profile" },
] as const;

/** Newer and older pages of a portal list (nothing when it fits on one). */
export function PortalPages({
  href,
  current,
  pages,
  label,
}: {
  href: string;
  current: number;
  pages: number;
  label: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="portal-pages" aria-label={label}>
      {current > 1 ? <a href={`${href}?page=${current - 1}`}>Newer</a> : <span />}
      <span>
        Page {current} of {pages}
      </span>
      {current < pages ? <a href={`${href}?page=${current + 1}`}>Older</a> : <span />}
    </nav>
  );
}

export function PortalFrame({
  base,
  current,
  who,
  children,
}: {
  base: string;
  current: (typeof PORTAL_SECTIONS)[number]["path"];
  who: string;
  children: ReactNode;
}) {
  return (
    <section className="site-section portal">
      <div className="site-container portal__layout">
        <aside className="portal__aside">
          <p className="portal__who">
            <span className="portal__who-label">Signed in as</span>
            <span className="portal__who-name">{who}</span>
          </p>
          <nav aria-label="Your account" className="portal__nav">
            <ul>
              {PORTAL_SECTIONS.map((section) => (
                <li key={section.path}>
                  <a
                    href={`${base}${section.path}`}
                    aria-current={section.path === current ? "page" : undefined}
                    className="portal__nav-link"
                  >
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <form method="post" action={`${base}/logout`} className="portal__signout">
            <button type="submit" className="portal__link-button">
              Sign out
            </button>
          </form>
        </aside>
        <div className="portal__main">{children}</div>
      </div>
    </section>
  );
}

/** A centred card for the sign-in steps and the link pages. */
export function AuthCard({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <section className="site-section portal-auth">
      <div className="site-container">
        <div className="portal-card">
          <h1 className="portal-card__title">{title}</h1>
          {lead ? <p className="portal-card__lead">{lead}</p> : null}
          {children}
        </div>
      </div>
    </section>
  );
}

/** The message of a refused form, when it is not about one field. */
export function FormNotice({ result }: { result?: FormResult | null }) {
  if (!result) return null;
  if (result.ok) {
    return result.message ? (
      <p className="portal-notice portal-notice--ok" role="status">
        {result.message}
      </p>
    ) : null;
  }
  const onField = result.fieldErrors && Object.keys(result.fieldErrors).length > 0;
  return (
    <p className="portal-notice portal-notice--error" role="alert">
      {onField ? "Please check the fields marked below." : result.message}
    </p>
  );
}

export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  children: (props: {
    id: string;
    name: string;
    "aria-invalid"?: true;
    "aria-describedby"?: string;
    className: string;
  }) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="site-field">
      <label className="site-label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="site-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children({
        id,
        name,
        className: "site-input",
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })}
      {error ? (
        <p className="site-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A date as the customer reads it (the server renders it: no script to localise it later). */
export function formatWhen(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
}

export const STATUS_LABELS: Record<string, string> = {
  open: "Waiting for reply",
  pending: "Answered",
  closed: "Closed",
};

/** A customer's support requests, newest activity first: each links to its page and shows its status. */
export function TicketList({
  tickets,
  base,
  timeZone,
}: {
  tickets: ReadonlyArray<{ id: string; number: number; subject: string; status: string; updatedAt: string }>;
  base: string;
  timeZone: string;
}) {
  return (
    <ul className="portal-list" aria-label="Your requests">
      {tickets.map((t) => (
        <li key={t.id} className="portal-list__item">
          <a href={`${base}/tickets/${t.id}`} className="portal-list__link">
            <span className="portal-list__title">
              #{t.number} {t.subject}
            </span>
            <span className="portal-muted">Updated {formatWhen(t.updatedAt, timeZone)}</span>
          </a>
          <span className={`portal-status portal-status--${t.status}`}>{STATUS_LABELS[t.status]}</span>
        </li>
      ))}
    </ul>
  );
}
