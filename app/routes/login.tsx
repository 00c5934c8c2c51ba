import type { HeadersFunction, LinksFunction, MetaFunction } from "@remix-run/node";
import { useSearchParams } from "@remix-run/react";
import { retryAfterOf, signInPage } from "~/modules/auth/sign-in.server";
import { AuthPage } from "~/ui/auth-page";
import consoleCss from "~/styles/console.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Sign in · Atrium" }];

const signIn = signInPage("login");
export const loader = signIn.loader;
export const action = signIn.action;

export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export default function Login() {
  const [params] = useSearchParams();
  return (
    <AuthPage
      mode="login"
      notice={params.get("deleted") ? "Your account and its workspaces were deleted." : undefined}
    />
  );
}
