// /website/navigation — the site's header menu and footer links, in order: each names one of the site's pages
// (shown while it is published) or an address. Editors and above change them; viewers read.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { parseForm, runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { NAV_AREAS, NavLinkInput, type NavArea } from "~/modules/sites/navigation";
import { navigationOf } from "~/modules/sites/navigation.server";
import { pagesOf } from "~/modules/sites/pages.server";
import { roleAtLeast } from "~/modules/tenancy/roles";
import { ConfirmForm } from "~/ui/confirm-form";
import { FormMessage } from "~/ui/form";
import editorCss from "~/styles/website-editor.css?url";

export const meta: MetaFunction = () => [{ title: "Navigation · Website · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: editorCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context);
  const { db } = context.services;
  const [links, pages] = await Promise.all([
    navigationOf(db, workspace.id).list(),
    pagesOf(db, workspace.id).options(),
  ]);
  return { site: { slug: workspace.slug }, links, pages, canEdit: roleAtLeast(role, "editor") };
});

const LinkId = z.object({ linkId: z.string().min(1) });

type NavResult = FormResult & { area?: NavArea; values?: Record<string, string> };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "editor");
  const nav = navigationOf(context.services.db, workspace.id);
  const actor = { userId: session.user.id, ip: context.request.ip };
  return runForm(
    request,
    context,
    async (values): Promise<NavResult> => {
      const [intent = "", linkId = ""] = (values.intent ?? "").split(":");
      switch (intent) {
        case "add": {
          const input = parseForm(NavLinkInput, values);
          await nav.add(actor, input);
          return { ok: true, intent: "add", area: input.area, message: `Link “${input.label}” added.` };
        }
        case "rename":
          await nav.rename(actor, linkId, values[`label.${linkId}`] ?? "");
          return { ok: true, intent: "links", message: "Link renamed." };
        case "up":
        case "down":
          await nav.move(actor, linkId, intent === "up" ? -1 : 1);
          return { ok: true, intent: "links", message: "Order saved." };
        case "remove":
          await nav.remove(actor, parseForm(LinkId, values).linkId);
          return { ok: true, intent: "links", message: "Link removed." };
        default:
          throw invalid("Unknown action");
      }
    },
    (values) => {
      const [intent = ""] = (values.intent ?? "").split(":");
      return intent === "add" ? { intent: "add", area: values.area as NavArea, values } : { intent: "links" };
    },
  );
});

const AREA_TEXT: Record<NavArea, { title: string; intro: string }> = {
  header: {
    title: "Header menu",
    intro: "The menu at the top of every page. Keep it short: five or six links read best on a phone.",
  },
  footer: {
    title: "Footer links",
    intro: "Links at the bottom of every page, beside your address and opening hours — e.g. FAQ, jobs, Instagram.",
  },
};

function AreaPanel({ area }: { area: NavArea }) {
  const { site, links, pages, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<NavResult>();
  const list = links[area];
  const adding = result?.intent === "add" && result.area === area ? result : undefined;
  const errors = adding && !adding.ok ? (adding.fieldErrors ?? {}) : {};
  const values = adding && !adding.ok ? (adding.values ?? {}) : {};
  const target = (link: (typeof list)[number]) => {
    if (!link.pageId) return link.url ?? "";
    const p = pages.find((x) => x.id === link.pageId);
    if (!p) return "A deleted page";
    const address = p.isHome ? `/${site.slug}` : `/${site.slug}/${p.slug}`;
    return link.pagePublished ? `${p.title} · ${address}` : `${p.title} · not published, hidden for now`;
  };
  const id = (name: string) => `${area}-${name}`;
  return (
    <section className="panel" aria-labelledby={id("heading")}>
      <h2 id={id("heading")}>{AREA_TEXT[area].title}</h2>
      <p className="hint">{AREA_TEXT[area].intro}</p>
      {list.length === 0 ? (
        <p className="empty">
          {area === "header"
            ? "No menu links yet. New pages are added here when you create them; add one below."
            : "No footer links yet. Add one below."}
        </p>
      ) : (
        <ol className="nav-links">
          {list.map((link, i) => (
            <li key={link.id}>
              {canEdit ? (
                <Form method="post">
                  <label className="visually-hidden" htmlFor={`label-${link.id}`}>
                    {`Text of link ${i + 1}`}
                  </label>
                  <input id={`label-${link.id}`} name={`label.${link.id}`} defaultValue={link.label} maxLength={40} />
                  <button type="submit" name="intent" value={`rename:${link.id}`} className="secondary">
                    Rename<span className="visually-hidden">{` ${link.label}`}</span>
                  </button>
                </Form>
              ) : (
                <strong>{link.label}</strong>
              )}
              <span className="nav-target">{target(link)}</span>
              {canEdit ? (
                <>
                  <Form method="post">
                    {i > 0 ? (
                      <button type="submit" name="intent" value={`up:${link.id}`} className="secondary">
                        ↑<span className="visually-hidden">{` Move ${link.label} up`}</span>
                      </button>
                    ) : null}
                    {i < list.length - 1 ? (
                      <button type="submit" name="intent" value={`down:${link.id}`} className="secondary">
                        ↓<span className="visually-hidden">{` Move ${link.label} down`}</span>
                      </button>
                    ) : null}
                  </Form>
                  <ConfirmForm
                    confirm={`Remove the link “${link.label}”? The page itself stays.`}
                    fields={{ intent: "remove", linkId: link.id }}
                  >
                    <button type="submit" className="secondary">
                      Remove<span className="visually-hidden">{` ${link.label}`}</span>
                    </button>
                  </ConfirmForm>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {canEdit ? (
        <Form method="post" key={adding?.ok ? `added-${list.length}` : area}>
          <h3>{area === "header" ? "Add a menu link" : "Add a footer link"}</h3>
          <input type="hidden" name="area" value={area} />
          <div className="two-fields">
            <div className="field">
              <label htmlFor={id("label")}>Text</label>
              <input
                id={id("label")}
                name="label"
                defaultValue={values.label}
                maxLength={40}
                aria-invalid={errors.label ? true : undefined}
              />
              {errors.label ? <p className="field-error">{errors.label}</p> : null}
            </div>
            <div className="field">
              <label htmlFor={id("page")}>Page</label>
              <select
                id={id("page")}
                name="pageId"
                defaultValue={values.pageId ?? ""}
                aria-invalid={errors.pageId ? true : undefined}
              >
                <option value="">— or an address below —</option>
                {pages.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.status === "published" ? p.title : `${p.title} (not published)`}
                  </option>
                ))}
              </select>
              {errors.pageId ? <p className="field-error">{errors.pageId}</p> : null}
            </div>
          </div>
          <div className="field">
            <label htmlFor={id("url")}>Address</label>
            <input
              id={id("url")}
              name="url"
              defaultValue={values.url}
              placeholder="https://instagram.com/…"
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={id("url-hint")}
            />
            <p className="hint" id={id("url-hint")}>
              {`Instead of a page: a web address, mailto:, tel:, or a path on your site such as /${site.slug}/contact.`}
            </p>
            {errors.url ? <p className="field-error">{errors.url}</p> : null}
          </div>
          {adding ? <FormMessage message={adding.message} tone={adding.ok ? "success" : "error"} /> : null}
          <button type="submit" name="intent" value="add">
            Add link
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export default function Navigation() {
  const result = useActionData<NavResult>();
  return (
    <>
      <p>
        <Link to="/website">All pages</Link>
      </p>
      <h1>Navigation</h1>
      <p>
        What visitors find in your site&apos;s header and footer. Links to unpublished pages stay hidden until you
        publish them.
      </p>
      {result?.intent === "links" ? (
        <FormMessage message={result.message} tone={result.ok ? "success" : "error"} />
      ) : null}
      {NAV_AREAS.map((area) => (
        <AreaPanel key={area} area={area} />
      ))}
    </>
  );
}
