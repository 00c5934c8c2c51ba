/** Completion notices: the signing secret and the latest deliveries to the callback URL. */
import { useLoaderData } from "@remix-run/react";
import { CopyButton } from "./copy-button";
import type { loader } from "./route";

export function NoticesPanel() {
  const { sop, deliveries, callbackSecret } = useLoaderData<typeof loader>();
  if (!sop.callbackUrl && deliveries.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="notices">
      <h2 id="notices">Completion notices</h2>
      <p>
        {"Each finished run is posted to the callback URL as "}
        <code>sop.run.succeeded</code>
        {" or "}
        <code>sop.run.failed</code>
        {", signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature)."}
      </p>
      {callbackSecret === "unreadable" ? (
        <p className="field-error">
          The signing secret cannot be read with this server&apos;s app key (APP_KEY or its key file changed). Restore
          the key, or clear the callback URL, save, and set it again to get a new secret.
        </p>
      ) : callbackSecret ? (
        <details>
          <summary>Show the signing secret</summary>
          <p className="key-line">
            <code>{callbackSecret}</code>
            <CopyButton value={callbackSecret} label="Copy the signing secret" />
          </p>
        </details>
      ) : null}
      {deliveries.length === 0 ? (
        <p className="empty">No notices sent yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-delivery-status={d.status}>
                <td>
                  <code>{d.eventType}</code>
                  <div className="hint">{d.id}</div>
                </td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.responseStatus ?? d.lastError ?? "—"}</td>
                <td>{d.createdAt.slice(0, 19).replace("T", " ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
