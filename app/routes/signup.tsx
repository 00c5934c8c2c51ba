import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { redirectIfSignedIn, retryAfterOf, signInWith } from "~/modules/auth/sign-in.server";
import { AuthPage } from "~/ui/auth-page";
import consoleCss from "~/styles/console.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: consoleCss }];
export const meta: MetaFunction = () => [{ title: "Create an account · Atrium" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request, context);
  return null;
}

export const headers: HeadersFunction = ({ actionHeaders }) => retryAfterOf(actionHeaders);

export const action = ({ request, context }: ActionFunctionArgs) => signInWith("signup", request, context);

export default function Signup() {
  return <AuthPage mode="signup" />;
}
