// /settings/site — "Site visibility" (ADR 023): the site is public, or protected by a password that visitors
// type on its unlock page. Changing the password, or making the site public again, signs out every visitor
// who unlocked it. Admins only.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { invalid } from "~/lib/errors";
import { type FormResult, runForm } from "~/lib/forms.server";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { SITE_PASSWORD_MAX, SITE_PASSWORD_MIN } from "~/modules/site-access/password-limits";
import { siteAccessOf, type SiteVisibility } from "~/modules/site-access/visibility.server";
import { FormMessage } from "~/ui/form";
import styles from "~/styles/site-visibility.css?url";

export const meta: MetaFunction = () => [{ title: "Site visibility · Atrium" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "admin");
  const access = await siteAccessOf(context.services.db, workspace.id).get();
  return {
    site: { name: workspace.name, slug: workspace.slug },
    visibility: access.visibility,
    updatedAt: access.updatedAt,
  };
});

type VisibilityResult = FormResult & { visibility?: SiteVisibility };

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  const { workspace, session } = await requireWorkspace(request, context, "admin");
  const access = siteAccessOf(context.services.db, workspace.id);
  return runForm(
    request,
    context,
    async (values): Promise<VisibilityResult> => {
      const current = (await access.get()).visibility;
      const password = values.password ?? "";
      switch (values.visibility) {
        case "public":
          if (current === "public") return { ok: true, visibility: "public", message: "Your site is public." };
          await access.makePublic(session.user.id);
          return {
            ok: true,
            visibility: "public",
            message: "Your site is public again: anyone can visit it, and search engines may list it.",
          };
        case "protected":
          if (current === "protected" && password === "") {
            return {
              ok: true,
              visibility: "protected",
              message: "Your site stays protected with its current password.",
            };
          }
          await access.protect(session.user.id, { password });
          return {
            ok: true,
            visibility: "protected",
            message:
              current === "protected"
                ? "Password changed. Visitors who unlocked the site with the old one are asked for the new one."
                : "Your site is now protected. Share the password with the people who should see it.",
          };
        default:
          throw invalid("Choose who can see your site", [
            { field: "visibility", message: "Choose public or protected" },
          ]);
      }
    },
    (values) => ({ visibility: values.visibility === "protected" ? "protected" : "public" }),
  );
});

function PasswordField({ error, isProtected }: { error?: string; isProtected: boolean }) {
  const [shown, setShown] = useState(false);
  const describedBy = ["password-hint", error ? "password-error" : null].filter(Boolean).join(" ");
  return (
    <div className="field visibility-password">
      <label htmlFor="field-password">{isProtected ? "New password" : "Password"}</label>
      <div className="password-input">
        <input
          id="field-password"
          name="password"
          type={shown ? "text" : "password"}
          autoComplete="new-password"
          minLength={SITE_PASSWORD_MIN}
          maxLength={SITE_PASSWORD_MAX}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        <button
          type="button"
          className="secondary password-toggle"
          aria-controls="field-password"
          aria-pressed={shown}
          onClick={() => setShown((v) => !v)}
        >
          {shown ? "Hide" : "Show"}
        </button>
      </div>
      <p className="hint" id="password-hint">
        {SITE_PASSWORD_MIN}–{SITE_PASSWORD_MAX} characters.{" "}
        {isProtected
          ? "Leave it empty to keep the current password. A new one signs out everyone who unlocked the site."
          : "Share it with the people who should see the site."}
      </p>
      {error ? (
        <p className="field-error" id="password-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function SiteVisibilitySettings() {
  const { site, visibility, updatedAt } = useLoaderData<typeof loader>();
  const result = useActionData<VisibilityResult>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  // What the form shows checked: the operator's choice when the save was refused, else what is saved.
  const [choice, setChoice] = useState<SiteVisibility>(
    result && !result.ok ? (result.visibility ?? visibility) : visibility,
  );
  // Without JavaScript the radios cannot reveal the password field, so it is there from the start.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const isProtected = visibility === "protected";
  const passwordError = result?.fieldErrors?.password;
  const siteHref = `/${site.slug}`;

  return (
    <>
      <h1>Site visibility</h1>
      <p className="lead">
        Who can see the website of <strong>{site.name}</strong>. <a href={siteHref}>View your site</a>
      </p>
      {result ? <FormMessage message={result.message} tone={result.ok ? "success" : "error"} /> : null}

      <section className="panel" aria-labelledby="status-heading">
        <h2 id="status-heading">Current visibility</h2>
        <p className="visibility-status">
          <span className={`visibility-badge ${isProtected ? "is-protected" : "is-public"}`}>
            {isProtected ? "Password protected" : "Public"}
          </span>{" "}
          {isProtected
            ? "Visitors see a password page first. Search engines are told not to index the site."
            : "Anyone with the address can visit your site, and search engines may list it."}
        </p>
        {updatedAt ? (
          <p className="hint">
            Last changed <time dateTime={updatedAt}>{new Date(updatedAt).toUTCString().replace(" GMT", " UTC")}</time>.
          </p>
        ) : null}
      </section>

      <Form
        key={updatedAt ?? "never"}
        method="post"
        className="panel"
        aria-labelledby="change-heading"
        onSubmit={(event) => {
          // Closing a public site to everyone is a big step: ask once (without JavaScript the warning above the
          // button says the same).
          if (!isProtected && choice === "protected") {
            const ok = window.confirm(
              "Make your site private? Everyone who visits it will need the password, and search engines will be asked to stop listing it.",
            );
            if (!ok) event.preventDefault();
          }
        }}
      >
        <h2 id="change-heading">Change visibility</h2>
        <fieldset className="plain visibility-choices">
          <legend className="visually-hidden">Who can see your site</legend>
          <label className={`visibility-choice ${choice === "public" ? "is-chosen" : ""}`}>
            <input
              type="radio"
              name="visibility"
              value="public"
              checked={choice === "public"}
              onChange={() => setChoice("public")}
            />
            <span>
              <strong>Public</strong>
              <span className="hint">Anyone can visit your site. Search engines may list its pages.</span>
            </span>
          </label>
          <label className={`visibility-choice ${choice === "protected" ? "is-chosen" : ""}`}>
            <input
              type="radio"
              name="visibility"
              value="protected"
              checked={choice === "protected"}
              onChange={() => setChoice("protected")}
            />
            <span>
              <strong>Protected with a password</strong>
              <span className="hint">
                Visitors see your logo and a password form instead of your pages until they type the password; it then
                works in that browser for 30 days. Search engines are told not to index the site, and its sitemap lists
                nothing.
              </span>
            </span>
          </label>
        </fieldset>

        {choice === "protected" || !hydrated ? <PasswordField error={passwordError} isProtected={isProtected} /> : null}

        {!isProtected && choice === "protected" ? (
          <p className="visibility-warning" role="note">
            Your site is public now. Once you save, everyone who opens it — customers, links you shared, search engines
            — sees the password page instead.
          </p>
        ) : null}
        {isProtected && choice === "public" ? (
          <p className="visibility-warning" role="note">
            Once you save, anyone can see your site again and the password stops being asked for.
          </p>
        ) : null}

        <button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save visibility"}
        </button>
      </Form>
    </>
  );
}
