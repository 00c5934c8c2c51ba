import type { HeadersFunction, LinksFunction, MetaFunction } from "@remix-run/node";
import { retryAfterOf, signInPage } from "~/modules/auth/sign-in.server";
import { AuthPage } from "~/ui/auth-page";
import consoleCss from "~/styles/console.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Create an account · Atrium" }];

const signIn = signInPage("signup");
export const loader = signIn.loader;
export const action = signIn.action;

export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export default function Signup() {
  return <AuthPage mode="signup" />;
}
