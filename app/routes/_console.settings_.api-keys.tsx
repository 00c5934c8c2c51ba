// /settings/api-keys — "API Keys": generate (shown once), list with usage, roll, revoke. Per account, so it
// needs no selected workspace.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { findRateLimits } from "~/modules/accounts/users.server";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { operatorWorkspaces, requireOperator } from "~/modules/access/operator.server";
import { FormMessage } from "~/ui/form";
import { ConfirmForm } from "~/ui/confirm-form";
import { Pager } from "~/ui/pager";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { now } from "~/lib/clock.server";
import { page } from "~/lib/routes.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

export const meta: MetaFunction = () => [{ title: "API Keys · Atrium" }];

const PAGE_SIZE = 20;
const EXPIRY_CHOICES = [
  { value: "", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
];
const GRACE_CHOICES = [
  { value: "0", label: "Stop the old key now" },
  { value: "1", label: "Keep the old key 1 hour" },
  { value: "24", label: "Keep the old key 24 hours" },
  { value: "168", label: "Keep the old key 7 days" },
];
const ROTATE_AFTER_DAYS = 90;

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const session = await requireOperator(request, context);
  const { db, apiRateLimit } = context.services;
  const { page, ...window } = pageOf(request, PAGE_SIZE);
  const keys = apiKeysOf(db, session.user);
  const [list, total, active, workspaces, limits] = await Promise.all([
    keys.list(window),
    keys.count(),
    keys.activeCount(),
    operatorWorkspaces(context, session),
    findRateLimits(db, session.user.id),
  ]);
  const at = now().getTime();
  const usage = await apiRateLimit.peek(
    list.filter((k) => k.status === "active").map((k) => k.id),
    limits,
  );
  const rows = list.map((key) => {
    const window = usage.get(key.id);
    return {
      ...key,
      ageDays: Math.floor((at - Date.parse(key.createdAt)) / 86_400_000),
      used: window ? limits.perHour - window.remaining : null,
      workspaceName: workspaces.find((w) => w.id === key.workspaceId)?.name ?? null,
    };
  });
  return {
    tier: session.user.tier,
    plan: TIER_PLANS[session.user.tier],
    limits,
    active,
    keys: rows,
    page,
    pages: pageCount(total, PAGE_SIZE),
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name })),
    origin: await publicOrigin(request, context),
  };
});

const GenerateForm = z.object({
  name: z.string().trim().min(1, "Name the key after where it is used").max(80, "Use at most 80 characters"),
  environment: z.enum(["live", "test"], { message: "Choose live or test" }),
  expiresInDays: z.enum(["", "30", "90", "365"]).transform((v) => (v ? Number(v) : null)),
  workspaceId: z.string().transform((v) => v || null),
});
const KeyForm = z.object({ keyId: z.string().min(1) });
const RollForm = KeyForm.extend({ graceHours: z.enum(["0", "1", "24", "168"]).transform(Number) });

type KeysResult = FormResult & { newKey?: { key: string; name: string } };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const session = await requireOperator(request, context);
  const keys = apiKeysOf(context.services.db, session.user);
  return runForm(request, context, async (values): Promise<KeysResult> => {
    switch (values.intent) {
      case "generate": {
        const created = await keys.generate(parseForm(GenerateForm, values));
        return { ok: true, intent: "generate", newKey: { key: created.key, name: created.view.name } };
      }
      case "roll": {
        const input = parseForm(RollForm, values);
        const created = await keys.roll(input.keyId, input.graceHours);
        return { ok: true, intent: "roll", newKey: { key: created.key, name: created.view.name } };
      }
      case "revoke":
        await keys.revoke(parseForm(KeyForm, values).keyId);
        return { ok: true, intent: "revoke", message: "Key revoked: it stopped working at once." };
      default:
        throw invalid("Unknown action");
    }
  });
});

function NewKey({ value, name, origin }: { value: string; name: string; origin: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="panel new-key" aria-labelledby="new-key">
      <h2 id="new-key">Your new key “{name}”</h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Keep it in an environment variable or a secret
        manager, never in code.
      </p>
      <p className="key-line">
        <code data-testid="new-api-key">{value}</code>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </p>
      <p>Try it:</p>
      <pre>
        <code>{`curl -H "Authorization: Bearer ${value}" ${origin}/api/auth/me`}</code>
      </pre>
    </section>
  );
}

export default function ApiKeys() {
  const { plan, limits, active, keys, page, pages, workspaces, origin } = useLoaderData<typeof loader>();
  const result = useActionData<KeysResult>();
  const generateErrors = result?.intent === "generate" ? result.fieldErrors : undefined;
  return (
    <>
      <h1>API Keys</h1>
      <p>
        Your plan: <strong>{plan.label}</strong> — {limits.perHour.toLocaleString("en")} requests per hour per key, at
        most {limits.burst.toLocaleString("en")} in each one-minute window,{" "}
        {plan.maxActiveApiKeys === null ? "any number of active keys" : `up to ${plan.maxActiveApiKeys} active keys`} (
        {active} active). A key acts as you in every workspace you belong to, unless you restrict it to one.
      </p>
      {result?.newKey ? <NewKey value={result.newKey.key} name={result.newKey.name} origin={origin} /> : null}
      {result && !result.newKey && !(generateErrors && Object.keys(generateErrors).length) ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}

      <section className="panel" aria-labelledby="generate">
        <h2 id="generate">Generate New Key</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="generate" />
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input id="key-name" name="name" required aria-invalid={generateErrors?.name ? true : undefined} />
            {generateErrors?.name ? <p className="field-error">{generateErrors.name}</p> : null}
          </div>
          <div className="field">
            <label htmlFor="key-environment">Environment</label>
            <select id="key-environment" name="environment" defaultValue="live">
              <option value="live">Live</option>
              <option value="test">Test</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="key-expiry">Expires</label>
            <select id="key-expiry" name="expiresInDays" defaultValue="90">
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="key-workspace">Workspaces</label>
            <select id="key-workspace" name="workspaceId" defaultValue="">
              <option value="">All my workspaces</option>
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  Only {w.name}
                </option>
              ))}
            </select>
            {generateErrors?.workspaceId ? <p className="field-error">{generateErrors.workspaceId}</p> : null}
          </div>
          {result?.intent === "generate" && !result.ok && !Object.keys(generateErrors ?? {}).length ? (
            <FormMessage message={result.message} />
          ) : null}
          <button type="submit">Generate New Key</button>
        </Form>
      </section>

      <section className="panel" aria-labelledby="keys">
        <h2 id="keys">Your keys</h2>
        {keys.length === 0 ? (
          <p className="empty">No keys yet. Generate one above to call the API.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                <th scope="col">This hour</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-prefix={k.displayPrefix}>
                  <td>
                    {k.name}
                    <div className="hint">
                      {k.environment} · {k.workspaceName ? `only ${k.workspaceName}` : "all workspaces"}
                    </div>
                  </td>
                  <td>
                    <code>{`${k.displayPrefix}…`}</code>
                  </td>
                  <td>
                    {k.createdAt.slice(0, 10)}
                    <div className="hint">
                      {k.ageDays} days old
                      {k.status === "active" && k.ageDays >= ROTATE_AFTER_DAYS ? " — time to roll it" : ""}
                    </div>
                  </td>
                  <td>{k.lastUsedAt ? k.lastUsedAt.slice(0, 16).replace("T", " ") : "Never"}</td>
                  <td>{k.expiresAt ? k.expiresAt.slice(0, 10) : "Never"}</td>
                  <td>{k.status}</td>
                  <td>{k.used === null ? "—" : `${k.used} / ${limits.perHour}`}</td>
                  <td>
                    {k.status === "active" ? (
                      <div className="key-actions">
                        <Form method="post">
                          <input type="hidden" name="intent" value="roll" />
                          <input type="hidden" name="keyId" value={k.id} />
                          <label className="visually-hidden" htmlFor={`grace-${k.id}`}>
                            Grace period for {k.name}
                          </label>
                          <select id={`grace-${k.id}`} name="graceHours" defaultValue="0">
                            {GRACE_CHOICES.map((c) => (
                              <option key={c.value} value={c.value}>
                                {c.label}
                              </option>
                            ))}
                          </select>
                          <button type="submit" className="secondary">
                            Roll
                          </button>
                        </Form>
                        <ConfirmForm
                          confirm={`Revoke “${k.name}”? Anything using it stops working at once.`}
                          fields={{ intent: "revoke", keyId: k.id }}
                        >
                          <button type="submit" className="danger" aria-label={`Revoke ${k.name}`}>
                            Revoke
                          </button>
                        </ConfirmForm>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pages={pages} label="Pages of keys" />
      </section>
    </>
  );
}
