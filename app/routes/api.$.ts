// Any /api/* path no route claims: a JSON 404 for every method, never the HTML page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { contractFor } from "~/lib/access-contract.server";
import { notFound } from "~/lib/errors";
import { errorResponse } from "~/lib/http.server";

const noRoute = ({ request, context }: LoaderFunctionArgs) => {
  context.request.log.route = "/api/*";
  context.request.log.callerType = contractFor(new URL(request.url).pathname).caller;
  return errorResponse(notFound(`No API route matches ${request.method} ${new URL(request.url).pathname}`), context);
};

export const loader = noRoute;
export const action = noRoute;
