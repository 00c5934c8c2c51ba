// /website/policies — the site's policies (privacy, terms, refund, shipping): which are written, which are
// published, and a link to write or edit each. Every member sees them; editors edit.
import { slugBase } from "~/lib/link-base";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { policiesOf } from "~/modules/sites/policies.server";
import { policyPath } from "~/modules/sites/policy-kinds";
import { roleAtLeast } from "~/modules/tenancy/roles";
import consoleContactCss from "~/styles/console-contact.css?url";

export const meta: MetaFunction = () => [{ title: "Policies · Website · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleContactCss }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace, role } = await requireWorkspace(request, context, "viewer");
  return {
    slug: workspace.slug,
    canEdit: roleAtLeast(role, "editor"),
    policies: await policiesOf(context.services.db, workspace.id).overview(),
  };
});

const STATUS = { "not-written": "Not written", draft: "Draft", published: "Published" } as const;
const updated = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export default function Policies() {
  const { slug, canEdit, policies } = useLoaderData<typeof loader>();
  const published = policies.filter((p) => p.status === "published").length;
  return (
    <>
      <h1>Policies</h1>
      <p className="page-intro">
        Published policies appear at <a href={`/${slug}/policies`}>/{slug}/policies</a> and are linked from your site's
        footer.{" "}
        {published === 0
          ? "None is published yet: start with a privacy policy — your contact form collects names and e-mail addresses."
          : `${published} of ${policies.length} published.`}
      </p>
      <ul className="policy-list">
        {policies.map((p) => (
          <li key={p.kind}>
            <div>
              <h2>
                {p.title}
                <span className={`status-tag ${p.status}`}>{STATUS[p.status]}</span>
              </h2>
              <p>
                {p.about}
                {p.updatedAt ? ` Last saved ${updated.format(new Date(p.updatedAt))}.` : ""}
              </p>
            </div>
            <div className="policy-links">
              {p.status === "published" ? (
                <a href={policyPath(slugBase(slug), p.kind)}>
                  View<span className="visually-hidden"> {p.title}</span> on site
                </a>
              ) : null}
              <Link className="button" to={`/website/policies/${p.kind}`}>
                {!canEdit ? "Read" : p.status === "not-written" ? "Write" : "Edit"}
                <span className="visually-hidden"> {p.title}</span>
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
