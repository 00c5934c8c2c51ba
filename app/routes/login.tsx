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

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Sign in · Atrium" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  return null;
}

export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export const action = ({ request, context }: ActionFunctionArgs) => signInWith("login", request, context);

export default function Login() {
  const [params] = useSearchParams();
  return (
    <AuthPage
      mode="login"
      notice={params.get("deleted") ? "Your account and its workspaces were deleted." : undefined}
    />
  );
}
