// /{site}/logout — POST signs the customer out of this site (their session ends; other sites and devices keep
// theirs) and sends them to the site's home page. GET only points at the account page.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { siteOfPath } from "~/modules/access/site.server";
import { PRIVATE } from "~/modules/customers/portal.server";
import { clearCustomerCookie, endCustomerSession } from "~/modules/customers/sessions.server";
import { linkBase } from "~/modules/sites/address.server";

const declared = { unguarded: "signing out needs no session: it ends the one the browser holds, if any" };

export const loader = page(
  "customer",
  async ({ params, context }: LoaderFunctionArgs) => {
    const site = (await siteOfPath(context.services.db, params.site)).workspace;
    throw redirect(`${linkBase(context, site.slug)}/account`, { status: 302, headers: PRIVATE });
  },
  declared,
);

export const action = page(
  "customer",
  async ({ request, params, context }: ActionFunctionArgs) => {
    const site = (await siteOfPath(context.services.db, params.site)).workspace;
    await endCustomerSession(context, request, site);
    return redirect(linkBase(context, site.slug) || "/", {
      status: 303,
      headers: { "Set-Cookie": clearCustomerCookie(context, site), ...PRIVATE },
    });
  },
  declared,
);
