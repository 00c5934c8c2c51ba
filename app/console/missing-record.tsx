/**
 * The error boundary of a console page about one record (a message, a policy): a missing record — deleted, or
 * another workspace's (a 404, ADR 005) — is said inside the shell with a way back; anything else is the
 * console's usual error.
 */
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";

export function MissingRecord({ what, back }: { what: string; back: { to: string; label: string } }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? `${what} not found` : status === 403 ? "Not allowed" : "Something went wrong";
  return (
    <section className="console-error">
      <title>{`${title} · Atrium`}</title>
      <p className="error-status">{status}</p>
      <h1>{title}</h1>
      <p>
        {status === 404
          ? `This ${what.toLowerCase()} does not exist in this workspace. It may have been deleted, or the link may be for another workspace.`
          : status === 403
            ? "Your role in this workspace does not allow this."
            : "We could not complete this request. It has been logged; please try again."}
      </p>
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
    </section>
  );
}
