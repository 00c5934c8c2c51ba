// /settings/webhooks — "Event receivers" (admin): for each family of /api/webhooks/*, the address to give a
// sender, its signing secrets (create: shown once; rotate: the old one keeps working for the overlap; revoke),
// and the log of every event received, newest first, with "Replay" for a verified event.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import type { ReceiverEventStatus } from "~db/schema";
import { invalid } from "~/lib/errors";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { pageCount } from "~/lib/pagination.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { receiverEventsOf } from "~/modules/events/log.server";
import { replayEvent } from "~/modules/events/receiver.server";
import { receiverSecretsOf } from "~/modules/events/secrets.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import webhooksCss from "~/styles/console-webhooks.css?url";

export const meta: MetaFunction = () => [{ title: "Event receivers · Settings · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: webhooksCss }];

const PAGE_SIZE = 25;
const BODY_SHOWN = 2000;
const STATUSES: readonly ReceiverEventStatus[] = ["applied", "duplicate", "refused", "failed", "received"];
const Filter = z.object({
  family: z.string().max(64).optional().catch(undefined),
  status: z
    .enum(STATUSES as [ReceiverEventStatus, ...ReceiverEventStatus[]])
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const { db, env, eventFamilies } = context.services;
  const url = new URL(request.url);
  const filter = Filter.parse(Object.fromEntries(url.searchParams));
  const family = filter.family || undefined;
  const [secrets, log] = await Promise.all([
    receiverSecretsOf(context.services, workspace.id).list(),
    receiverEventsOf(db, workspace.id).list({
      family,
      status: filter.status,
      size: PAGE_SIZE,
      offset: (filter.page - 1) * PAGE_SIZE,
    }),
  ]);
  const origin = await publicOrigin(request, context);
  return {
    workspaceId: workspace.id,
    overlapHours: env.WEBHOOKS_ROTATION_OVERLAP_HOURS,
    families: eventFamilies.all().map((f) => ({
      family: f.family,
      summary: f.describe.summary,
      url: `${origin}/api/webhooks/${f.family}?workspace=${workspace.id}`,
      provider: Boolean(f.secret),
      secrets: secrets.filter((s) => s.family === f.family && !s.revokedAt && s.active),
    })),
    // What was sent, shortened: enough to see what a sender meant without shipping 256 KB per row.
    events: log.events.map(({ body, headers, ...event }) => ({
      ...event,
      body: body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}…` : body,
      timestamp: headers["webhook-timestamp"] ?? "",
    })),
    filter: { family: family ?? "", status: filter.status ?? "" },
    page: filter.page,
    pages: pageCount(log.total, PAGE_SIZE),
    total: log.total,
  };
});

const FamilyForm = z.object({ family: z.string().min(1).max(64) });
const SecretForm = z.object({ secretId: z.string().min(1).max(64) });
const EventForm = z.object({ eventRow: z.string().min(1).max(64) });

type ReceiversResult = FormResult & { newSecret?: { family: string; secret: string } };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const actor = { userId: session.user.id, ip: context.request.ip };
  const secrets = receiverSecretsOf(context.services, workspace.id);
  const { env, eventFamilies } = context.services;
  return runForm(request, context, async (values): Promise<ReceiversResult> => {
    switch (values.intent) {
      case "create":
      case "rotate": {
        const { family } = parseForm(FamilyForm, values);
        if (!eventFamilies.get(family)) throw invalid("No such event family");
        const issued = await secrets.create(actor, family, env.WEBHOOKS_ROTATION_OVERLAP_HOURS);
        return { ok: true, intent: values.intent, newSecret: { family, secret: issued.secret } };
      }
      case "revoke":
        await secrets.revoke(actor, parseForm(SecretForm, values).secretId);
        return {
          ok: true,
          intent: "revoke",
          message: "Secret revoked: events signed with it are refused from now on.",
        };
      case "replay": {
        // The replay is recorded on the event's row whatever its outcome; a refusal is the form's message.
        await replayEvent(context.services, workspace, parseForm(EventForm, values).eventRow, actor);
        return { ok: true, intent: "replay", message: "Event replayed and applied again." };
      }
      default:
        throw invalid("Unknown action");
    }
  });
});

const when = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});
const at = (iso: string) => when.format(new Date(iso));

const REASONS: Record<string, string> = {
  unknown_family: "No such event family",
  rate_limited: "Too many events this minute",
  too_large: "Body over 256 KB",
  missing_headers: "Unsigned: webhook-id, -timestamp or -signature missing",
  no_secret: "No secret for this family yet",
  bad_signature: "Signature does not match any current secret",
  stale_timestamp: "Timestamp outside the replay window",
  owner_suspended: "The workspace's owner is suspended",
  workspace_mismatch: "Signed for another workspace",
};

function NewSecret({ family, secret }: { family: string; secret: string }) {
  return (
    <section className="panel new-key" aria-labelledby="new-secret">
      <h2 id="new-secret">New secret for “{family}”</h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Give it to the sender, which signs each event with it
        (Standard Webhooks).
      </p>
      <p className="key-line">
        <code data-testid="new-webhook-secret">{secret}</code>
      </p>
    </section>
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function Receiver({ receiver, overlapHours }: { receiver: Loaded["families"][number]; overlapHours: number }) {
  const current = receiver.secrets.find((s) => !s.expiresAt);
  const headingId = `receiver-${receiver.family.replace(/\W/g, "-")}`;
  return (
    <li className="panel" aria-labelledby={headingId}>
      <div className="receiver-head">
        <h3 id={headingId}>{receiver.family}</h3>
        {current ? (
          <span className="status-tag current">Receiving</span>
        ) : (
          <span className="status-tag">No secret yet</span>
        )}
      </div>
      <p className="hint">{receiver.summary}</p>
      <p className="receiver-url">
        <span>Endpoint:</span> <code>{receiver.url}</code>
      </p>
      {receiver.provider ? (
        <p className="hint">Signed with the provider connection&apos;s own secret.</p>
      ) : (
        <>
          {receiver.secrets.length > 0 ? (
            <ul className="secret-list" aria-label={`Secrets of ${receiver.family}`}>
              {receiver.secrets.map((s) => (
                <li key={s.id}>
                  <code>whsec_…{s.hint}</code>
                  <span className="hint">created {at(s.createdAt)}</span>
                  {s.expiresAt ? (
                    <span className="status-tag overlap">Valid until {at(s.expiresAt)}</span>
                  ) : (
                    <span className="status-tag current">Current</span>
                  )}
                  <ConfirmForm
                    confirm={`Revoke the secret ending ${s.hint}? Events signed with it will be refused at once.`}
                    fields={{ intent: "revoke", secretId: s.id }}
                  >
                    <button type="submit" className="danger">
                      Revoke<span className="visually-hidden"> the secret ending {s.hint}</span>
                    </button>
                  </ConfirmForm>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="secret-actions">
            {current ? (
              <ConfirmForm
                confirm={`Rotate the ${receiver.family} secret? The current one keeps working for ${overlapHours} hours.`}
                fields={{ intent: "rotate", family: receiver.family }}
              >
                <button type="submit" className="secondary">
                  Rotate secret<span className="visually-hidden"> of {receiver.family}</span>
                </button>
              </ConfirmForm>
            ) : (
              <Form method="post">
                <input type="hidden" name="family" value={receiver.family} />
                <button type="submit" name="intent" value="create">
                  Create secret<span className="visually-hidden"> for {receiver.family}</span>
                </button>
              </Form>
            )}
          </div>
        </>
      )}
    </li>
  );
}

function pageLink(filter: Loaded["filter"], page: number) {
  const query = new URLSearchParams();
  if (filter.family) query.set("family", filter.family);
  if (filter.status) query.set("status", filter.status);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `?${text}` : ".";
}

export default function EventReceivers() {
  const { families, events, filter, page, pages, total, overlapHours } = useLoaderData<typeof loader>();
  const result = useActionData<ReceiversResult>();
  return (
    <>
      <h1>Event receivers</h1>
      <p className="page-intro">
        Other systems keep your site current by sending signed events here (Standard Webhooks). Give a sender the
        endpoint of its family and a secret; each event then changes your site at the next visit. A rotated secret keeps
        working for {overlapHours} hours, so the sender can switch without a gap.
      </p>
      {result?.newSecret ? <NewSecret family={result.newSecret.family} secret={result.newSecret.secret} /> : null}
      {result && !result.newSecret ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}

      <section aria-labelledby="receivers">
        <h2 id="receivers">Families</h2>
        <ul className="receiver-list">
          {families.map((r) => (
            <Receiver key={r.family} receiver={r} overlapHours={overlapHours} />
          ))}
        </ul>
      </section>

      <section className="panel" aria-labelledby="event-log">
        <h2 id="event-log">Events received</h2>
        <Form method="get" className="event-filters">
          <div className="field">
            <label htmlFor="filter-family">Family</label>
            <select id="filter-family" name="family" defaultValue={filter.family}>
              <option value="">All</option>
              {families.map((f) => (
                <option key={f.family} value={f.family}>
                  {f.family}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-status">Status</label>
            <select id="filter-status" name="status" defaultValue={filter.status}>
              <option value="">All</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="secondary">
            Filter
          </button>
        </Form>
        {events.length === 0 ? (
          <p className="empty">
            {filter.family || filter.status
              ? "No event matches this filter."
              : "No event yet. Create a secret above and give it, with the endpoint, to the sender."}
          </p>
        ) : (
          <div className="table-scroll events-scroll">
            <table className="events">
              <caption className="visually-hidden">Events received, newest first ({total})</caption>
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Family</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Reason</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id}>
                    <td>{at(e.receivedAt)}</td>
                    <td>{e.family}</td>
                    <td>
                      {e.eventType ?? "—"}
                      <br />
                      <code>{e.eventId || "no id"}</code>
                      {e.body ? (
                        <details className="event-body">
                          <summary>
                            Body<span className="visually-hidden"> of {e.eventId}</span>
                          </summary>
                          <pre>
                            <code>{e.body}</code>
                          </pre>
                          {e.timestamp ? <p className="hint">webhook-timestamp {e.timestamp}</p> : null}
                        </details>
                      ) : null}
                    </td>
                    <td>
                      <span className={`status-tag ${e.status}`}>{e.status}</span>
                      {e.replays > 0 ? <span className="hint"> replayed {e.replays}×</span> : null}
                    </td>
                    <td className="reason">{e.reason ? (REASONS[e.reason] ?? e.reason) : ""}</td>
                    <td>
                      {e.verified && (e.status === "applied" || e.status === "failed") ? (
                        <ConfirmForm
                          confirm={`Apply the event ${e.eventId} again?`}
                          fields={{ intent: "replay", eventRow: e.id }}
                        >
                          <button type="submit" className="secondary">
                            Replay<span className="visually-hidden"> {e.eventId}</span>
                          </button>
                        </ConfirmForm>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {pages > 1 ? (
          <nav aria-label="Event pages" className="pager">
            {page > 1 ? <Link to={pageLink(filter, page - 1)}>Newer</Link> : null}
            <span>{`Page ${page} of ${pages}`}</span>
            {page < pages ? <Link to={pageLink(filter, page + 1)}>Older</Link> : null}
          </nav>
        ) : null}
      </section>
    </>
  );
}
