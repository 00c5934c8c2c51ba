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
const status = element("status");
const retryButton = element<HTMLButtonElement>("retry");

/** The shell checks the deployment answers before loading it; until then this page stays and says why. */
async function retry(): Promise<void> {
  retryButton.disabled = true;
  status.textContent = "Checking…";
  try {
    const result = await desktop.retry();
    status.textContent = result.ok ? "" : `Still unreachable (${new Date().toLocaleTimeString()}): ${result.error}`;
  } finally {
    retryButton.disabled = false;
  }
}

retryButton.addEventListener("click", () => void retry());
element("switch").addEventListener("click", () => void desktop.switchDeployment());
retryButton.focus();
setInterval(() => void retry(), RETRY_EVERY_MS);
