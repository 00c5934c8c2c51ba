// /{site}/saved — what the signed-in customer saved on this site (ADR 029): pages and products (ADR 030); services
// and stories with their issues. POST `intent=save` (from a page's or product's "Save" button, `kind` page or
// product) or `intent=remove`. Requires the site's customer session; never cached.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { runForm, type FormResult } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requirePortalCustomer } from "~/modules/access/customer.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { savedItemsOf, type SavedKind } from "~/modules/customers/saved.server";
import { linkBase } from "~/modules/sites/address.server";
import { SITE_LAYOUT_ID, type SiteChrome, withSiteChrome } from "~/site/chrome";
import { PortalFrame, formatWhen } from "~/site/portal";
import type { RouteHandle } from "~/ui/handle";
import portalCss from "~/styles/site-portal.css?url";

export const handle: RouteHandle = { hydrate: false };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: portalCss }];

export const loader = page("customer", async ({ request, params, context }: LoaderFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const saved = savedItemsOf(context.services.db, site.workspace.id, customer.id);
  // `?save={page}` or `?save=product:{id}`: the "Save" of a visitor who had to sign in first; offered again, not
  // done blindly.
  const asked = new URL(request.url).searchParams.get("save");
  const [kind, ref] = asked?.startsWith("product:")
    ? (["product", asked.slice(8)] as const)
    : (["page", asked] as const);
  const [items, offer] = await Promise.all([saved.list(), ref ? saved.offer(kind, ref) : null]);
  return {
    items,
    offer: offer && !offer.saved ? offer : null,
    who: customer.name || customer.email,
    base: linkBase(context, site.workspace.slug),
  };
});

export const action = page("customer", async ({ request, params, context }: ActionFunctionArgs) => {
  const { site, customer } = await requirePortalCustomer(request, context, params.site);
  const saved = savedItemsOf(context.services.db, site.workspace.id, customer.id);
  return runForm(request, context, async (values): Promise<FormResult | Response> => {
    const kind: SavedKind = values.kind === "product" ? "product" : "page";
    if (values.intent === "save") await saved.save(kind, values.ref ?? "");
    else await saved.remove(kind, values.ref ?? "");
    return redirect(`${linkBase(context, site.workspace.slug)}/saved`, { status: 303, headers: PRIVATE });
  });
});

export const headers: HeadersFunction = () => PRIVATE;

const ownMeta: MetaFunction<typeof loader> = ({ matches }) => {
  const chrome = matches.find((m) => m.id === SITE_LAYOUT_ID)?.data as SiteChrome | undefined;
  return [{ title: chrome ? `Saved · ${chrome.name}` : "Saved" }, { name: "robots", content: "noindex, nofollow" }];
};
export const meta = withSiteChrome(ownMeta);

export default function Saved() {
  const { items, offer, who, base } = useLoaderData<typeof loader>();
  const chrome = useRouteLoaderData<SiteChrome>(SITE_LAYOUT_ID);
  const timeZone = chrome?.profile.timeZone ?? "UTC";
  return (
    <PortalFrame base={base} current="/saved" who={who}>
      <h1 className="portal__title">Saved</h1>
      {offer ? (
        <form method="post" action={`${base}/saved`} className="portal-notice portal-offer">
          <input type="hidden" name="kind" value={offer.kind} />
          <input type="hidden" name="ref" value={offer.ref} />
          <span>Save “{offer.title}” to find it here again?</span>
          <button type="submit" name="intent" value="save" className="site-button">
            Save
          </button>
        </form>
      ) : null}
      {items.length === 0 ? (
        <p className="portal-empty">
          Nothing saved yet. Pages and products you save with their “Save” button appear here, so you can find them
          again.
        </p>
      ) : (
        <ul className="portal-list" aria-label="Saved pages and products">
          {items.map((item) => (
            <li key={`${item.kind}:${item.ref}`} className="portal-list__item">
              <a href={`${base}${item.path}` || "/"} className="portal-list__link">
                <span className="portal-list__title">{item.title}</span>
                <span className="portal-muted">Saved {formatWhen(item.savedAt, timeZone)}</span>
              </a>
              <form method="post">
                <input type="hidden" name="kind" value={item.kind} />
                <input type="hidden" name="ref" value={item.ref} />
                <button type="submit" name="intent" value="remove" className="portal__link-button">
                  Remove<span className="visually-hidden"> {item.title}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </PortalFrame>
  );
}
