/** Shown in a deployment's window when it cannot be reached; Retry goes back to the page that failed. */
import { desktop, element } from "./bridge";

const params = new URLSearchParams(location.search);
const name = params.get("name") ?? "the deployment";
const origin = params.get("origin") ?? "";
const RETRY_EVERY_MS = 15_000;

element("title").textContent = `Cannot reach ${name}`;
element("detail").textContent = origin
  ? `${origin} did not answer. Check that the server is running and that this computer is online.`
  : "The deployment did not answer.";
element("reason").textContent = params.get("reason") ? `Reason: ${params.get("reason")}` : "";
element("retry").addEventListener("click", () => void desktop.retry());
element("switch").addEventListener("click", () => void desktop.switchDeployment());
element<HTMLButtonElement>("retry").focus();
setInterval(() => void desktop.retry(), RETRY_EVERY_MS);
