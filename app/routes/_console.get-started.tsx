import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { checklistFor } from "~/modules/onboarding/checklist.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { page } from "~/lib/routes.server";

export const meta: MetaFunction = () => [{ title: "Get started · Atrium" }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { session, workspace, repo } = await requireWorkspace(request, context, "viewer");
  const items = await checklistFor(context.services.db, { workspace, repo }, session.user);
  return { name: workspace.name, slug: workspace.slug, items };
});

export default function GetStarted() {
  const { name, slug, items } = useLoaderData<typeof loader>();
  const done = items.filter((i) => i.done).length;
  return (
    <>
      <h1>Get started with {name}</h1>
      <p>
        {done} of {items.length} done. Your public site is at <a href={`/${slug}`}>/{slug}</a>.
      </p>
      <ol className="checklist panel">
        {items.map((item) => (
          <li key={item.id} className={item.done ? "done" : undefined}>
            <span className="tick" aria-hidden="true">
              {item.done ? "✓" : ""}
            </span>
            <div>
              <h3>
                {item.title}
                <span className="visually-hidden">{item.done ? " (done)" : " (to do)"}</span>
              </h3>
              <p>{item.description}</p>
              <Link to={item.href}>{item.action}</Link>
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
