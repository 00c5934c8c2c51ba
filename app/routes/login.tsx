import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { useSearchParams } from "@remix-run/react";
import { redirectIfSignedIn, retryAfterOf, signInWith } from "~/modules/auth/sign-in.server";
import { AuthPage } from "~/ui/auth-page";
import consoleCss from "~/styles/console.css?url";
import { page } from "~/lib/routes.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Sign in · Atrium" }];

const SIGN_IN = { unguarded: "where an operator obtains a session" };

export const loader = page(
  "operator",
  async ({ request, context }: LoaderFunctionArgs) => {
    await redirectIfSignedIn(request, context);
    return null;
  },
  SIGN_IN,
);

export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export const action = page(
  "operator",
  ({ request, context }: ActionFunctionArgs) => signInWith("login", request, context),
  SIGN_IN,
);

export default function Login() {
  const [params] = useSearchParams();
  return (
    <AuthPage
      mode="login"
      notice={params.get("deleted") ? "Your account and its workspaces were deleted." : undefined}
    />
  );
}
