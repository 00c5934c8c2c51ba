/**
 * An order's packages (ADR 034), as the console's order page and the customer's order page both show them: the
 * carrier, the tracking number (a link to follow it where there is one), the state, and the carrier's steps.
 * `action` adds what the viewer may do with a package (the operator marks a parcel sent by hand delivered).
 */
import type { ReactNode } from "react";

export interface PackageView {
  id: string;
  carrier: string;
  service: string;
  trackingNumber: string;
  trackingUrl: string | null;
  status: string;
  statusLabel: string;
  statusDetail: string;
  sent: string;
  lines: ReadonlyArray<{ title: string; quantity: number }>;
  steps: ReadonlyArray<{ status: string; message: string; location: string; at: string }>;
}

export function PackageList({
  packages,
  action,
}: {
  packages: readonly PackageView[];
  action?: (p: PackageView) => ReactNode;
}) {
  return (
    <ol className="package-list">
      {packages.map((p, i) => (
        <li key={p.id}>
          <p>
            <strong>
              {packages.length > 1 ? `Package ${i + 1}: ` : ""}
              {p.carrier}
              {p.service ? ` · ${p.service}` : ""}
            </strong>{" "}
            <span className={`status-pill status-pill--shipment-${p.status}`}>{p.statusLabel}</span>
          </p>
          <p className="hint">
            Sent {p.sent}
            {p.trackingNumber ? (
              <>
                {" · "}Tracking{" "}
                {p.trackingUrl ? (
                  <a href={p.trackingUrl} target="_blank" rel="noreferrer noopener">
                    {p.trackingNumber}
                  </a>
                ) : (
                  p.trackingNumber
                )}
              </>
            ) : null}
            {p.statusDetail ? ` · ${p.statusDetail}` : ""}
          </p>
          {p.lines.length > 0 ? (
            <p className="hint">{p.lines.map((l) => `${l.quantity} × ${l.title}`).join(", ")}</p>
          ) : null}
          {p.steps.length > 0 ? (
            <ol className="tracking-steps">
              {p.steps.map((t, n) => (
                // Steps are never reordered or edited in place: their position is a stable key.
                <li key={n}>
                  <time>{t.at}</time> — {t.message}
                  {t.location ? ` (${t.location})` : ""}
                </li>
              ))}
            </ol>
          ) : null}
          {action ? action(p) : null}
        </li>
      ))}
    </ol>
  );
}
