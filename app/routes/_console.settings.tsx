import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import type { Role } from "~/modules/tenancy/roles";
import { type FormResult, parseForm, runForm } from "~/lib/forms.server";
import { invalid } from "~/lib/errors";
import { EmailSchema } from "~/modules/accounts/users.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { retryAfterOf } from "~/modules/auth/sign-in.server";
import { INVITATION_DAYS, invitationsOf, inviteMember } from "~/modules/tenancy/invitations.server";
import { SlugSchema, WorkspaceNameSchema } from "~/modules/tenancy/slug";
import { ASSIGNABLE_ROLES, roleAtLeast } from "~/modules/tenancy/roles";
import { ConfirmForm } from "~/ui/confirm-form";
import { Field, FormMessage } from "~/ui/form";
import { page } from "~/lib/routes.server";
import { publicOrigin } from "~/modules/hosts/hosts.server";

export const meta: MetaFunction = () => [{ title: "Workspace settings · Atrium" }];

/** A throttled invitation's page carries the action's Retry-After. */
export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { session, workspace, role, repo } = await requireWorkspace(request, context, "viewer");
  return {
    workspace: { name: workspace.name, slug: workspace.slug },
    members: await repo.listMembers(),
    invitations: await invitationsOf(context.services.db, workspace.id).pending(),
    invitationDays: INVITATION_DAYS,
    role,
    me: { id: session.user.id },
    origin: new URL(await publicOrigin(request, context)).host,
  };
});

const WorkspaceForm = z.object({ name: WorkspaceNameSchema, slug: SlugSchema });
const RoleSchema = z.enum(ASSIGNABLE_ROLES as [Role, ...Role[]], { message: "Choose admin, editor or viewer" });
const InviteForm = z.object({ email: EmailSchema, role: RoleSchema });
const RevokeInvitationForm = z.object({ invitationId: z.string().min(1) });
const ChangeRoleForm = z.object({ userId: z.string().min(1), role: RoleSchema });
const RemoveMemberForm = z.object({ userId: z.string().min(1) });

export const action = page("operator", async ({ request, context }: ActionFunctionArgs) => {
  // Every change here needs an admin; the body of anyone else is never read.
  const { session, workspace, repo } = await requireWorkspace(request, context, "admin");
  const actor = session.user.id;
  return runForm(request, context, async (values): Promise<FormResult> => {
    switch (values.intent) {
      case "workspace":
        await repo.update(actor, parseForm(WorkspaceForm, values));
        // The site's custom domains serve it by slug (ADR 025): this node's list takes the new one at once.
        context.services.siteDomains.invalidate();
        return { ok: true, intent: values.intent, message: "Saved." };
      case "invite": {
        const input = parseForm(InviteForm, values);
        await inviteMember(context.services, workspace, actor, input, await publicOrigin(request, context));
        // The same answer whether or not an account uses the address.
        return { ok: true, intent: values.intent, message: `Invitation sent to ${input.email}.` };
      }
      case "revoke-invitation": {
        const { invitationId } = parseForm(RevokeInvitationForm, values);
        await invitationsOf(context.services.db, workspace.id).revoke(actor, invitationId);
        return { ok: true, intent: values.intent, message: "Invitation revoked." };
      }
      case "change-role": {
        const input = parseForm(ChangeRoleForm, values);
        await repo.changeRole(actor, input.userId, input.role);
        return { ok: true, intent: values.intent, message: "Role changed." };
      }
      case "remove-member":
        await repo.removeMember(actor, parseForm(RemoveMemberForm, values).userId);
        return { ok: true, intent: values.intent, message: "Member removed." };
      default:
        throw invalid("Unknown action");
    }
  });
});

export default function Settings() {
  const { workspace, members, invitations, invitationDays, role, me, origin } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const canManage = roleAtLeast(role, "admin");
  const resultOf = (intent: string) => (result?.intent === intent ? result : undefined);
  const ws = resultOf("workspace");
  const add = resultOf("invite");
  const revoked = resultOf("revoke-invitation");
  const memberResult = resultOf("change-role") ?? resultOf("remove-member");

  return (
    <>
      <h1>Settings</h1>
      {!canManage ? (
        <p className="form-message error" role="note">
          You have {role} access: you can see these settings but not change them. Ask an admin of {workspace.name}.
        </p>
      ) : null}

      <section className="panel" aria-labelledby="workspace-settings">
        <h2 id="workspace-settings">Workspace</h2>
        <FormMessage message={ws?.message} tone={ws?.ok ? "success" : "error"} />
        <Form method="post">
          <input type="hidden" name="intent" value="workspace" />
          <fieldset disabled={!canManage} className="plain">
            <Field label="Name" name="name" defaultValue={workspace.name} error={ws?.fieldErrors?.name} required />
            <Field
              label="Site address"
              name="slug"
              prefix={`${origin}/`}
              defaultValue={workspace.slug}
              error={ws?.fieldErrors?.slug}
              required
              hint="Changing it moves your public site. The old address redirects to the new one for 90 days, and no one else can take it meanwhile."
            />
            <button type="submit">Save</button>
          </fieldset>
        </Form>
      </section>

      <section className="panel" aria-labelledby="members" id="members">
        <h2>Members</h2>
        <FormMessage message={memberResult?.message} tone={memberResult?.ok ? "success" : "error"} />
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId}>
                <td>
                  {m.email}
                  {m.userId === me.id ? " (you)" : ""}
                </td>
                <td>
                  {m.role === "owner" || !canManage ? (
                    m.role
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="change-role" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <label className="visually-hidden" htmlFor={`role-${m.userId}`}>
                        Role of {m.email}
                      </label>
                      <select id={`role-${m.userId}`} name="role" defaultValue={m.role}>
                        {ASSIGNABLE_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                      <button type="submit" className="secondary">
                        Change
                      </button>
                    </Form>
                  )}
                </td>
                <td>
                  {m.role !== "owner" && canManage ? (
                    <ConfirmForm
                      confirm={`Remove ${m.email} from ${workspace.name}?`}
                      fields={{ intent: "remove-member", userId: m.userId }}
                    >
                      <button type="submit" className="secondary">
                        Remove
                      </button>
                    </ConfirmForm>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {invitations.length > 0 ? (
          <>
            <h3 id="invitations">Pending invitations</h3>
            <FormMessage message={revoked?.message} tone={revoked?.ok ? "success" : "error"} />
            <table aria-labelledby="invitations">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email}</td>
                    <td>{i.role}</td>
                    <td>{i.invitedBy ?? "a former member"}</td>
                    <td>
                      <time dateTime={i.expiresAt}>{i.expiresAt.slice(0, 10)}</time>
                    </td>
                    <td>
                      {canManage ? (
                        <ConfirmForm
                          confirm={`Revoke the invitation of ${i.email}?`}
                          fields={{ intent: "revoke-invitation", invitationId: i.id }}
                        >
                          <button type="submit" className="secondary">
                            Revoke
                          </button>
                        </ConfirmForm>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
        {canManage ? (
          <>
            <h3>Invite a member</h3>
            <FormMessage message={add?.message} tone={add?.ok ? "success" : "error"} />
            {/* A new form once an invitation is sent, so the field is empty for the next one (with JavaScript the
                page is not reloaded, and the browser would keep what was typed). */}
            <Form method="post" key={add?.ok ? add.message : "invite"}>
              <input type="hidden" name="intent" value="invite" />
              <Field
                label="Email"
                name="email"
                type="email"
                error={add?.fieldErrors?.email}
                required
                hint={`We e-mail them a link to join, valid for ${invitationDays} days; they can create an account on the way.`}
              />
              <div className="field">
                <label htmlFor="field-role">Role</label>
                <select id="field-role" name="role" defaultValue="editor">
                  {ASSIGNABLE_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
                {add?.fieldErrors?.role ? <p className="field-error">{add.fieldErrors.role}</p> : null}
              </div>
              <button type="submit">Send invitation</button>
            </Form>
          </>
        ) : null}
      </section>

      <p>
        Your own account (and deleting it) is under <Link to="/settings/account">Account</Link>.
      </p>
    </>
  );
}
