/**
 * The "done when", in Chromium: a new user creates a SOP in the console, creates a trigger, pastes
 * the page's curl example (run by bash, with curl and openssl) and gets 202 with a run that succeeds and
 * shows in the console; after rotation the old secret is refused.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { browserSuite, finishSignUp } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const run = promisify(execFile);
const suite = browserSuite({
  permissions: ["clipboard-read", "clipboard-write"],
  env: { JOBS_POLL_MS: "50" },
});

describe("SOPs in Chromium", () => {
  it("creates a SOP and a trigger, runs the page's curl example, sees the run, rotates the secret", async () => {
    const page = await suite.context.newPage();
    const email = uniqueEmail("sops");
    await page.goto(`${suite.server.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await finishSignUp(page, suite.server, email);
    await page.getByLabel("Name").fill("Corner Shop");
    await page.getByLabel("Site address").fill("corner-shop");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Get started" }).waitFor();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "SOPs" }).click();
    await page.getByText("No SOPs yet").waitFor();
    await page.getByLabel("Name").fill("Welcome customer");
    await page.getByLabel("Slug").fill("welcome-customer");
    await page.getByRole("button", { name: "Create SOP" }).click();
    await page.getByText("SOP created. Add its steps, then create a trigger.").waitFor();

    // Two steps through the editor: add, fill, save.
    await page.getByLabel("New step").selectOption("set");
    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByText("Step 1: Set values").waitFor();
    await page.getByLabel("Values", { exact: true }).fill('greeting = "Welcome, " + input.name');
    await page.getByLabel("New step").selectOption("send_email");
    await page.getByRole("button", { name: "Add step" }).click();
    await page.getByText("Step 2: Send e-mail").waitFor();
    expect(await page.getByLabel("Values", { exact: true }).inputValue()).toBe('greeting = "Welcome, " + input.name');
    await page.getByLabel("To", { exact: true }).fill("{{input.email}}");
    await page.getByLabel("Subject", { exact: true }).fill("{{vars.greeting}}");
    await page.getByLabel("Message", { exact: true }).fill("Thanks for signing up.");
    await page.getByRole("button", { name: "Save SOP" }).click();
    await page.getByText("Saved.").waitFor();
    // Enter in a field saves (it must not press the first "Remove step" button).
    await page.getByLabel("Description").fill("Greets new customers");
    await page.getByLabel("Description").press("Enter");
    await page.getByText("· Greets new customers").waitFor();
    expect(await page.getByText("Step 2: Send e-mail").count()).toBe(1);

    await page.getByRole("button", { name: "Create trigger" }).click();
    const secret = (await page.getByTestId("trigger-secret").textContent()) ?? "";
    expect(secret).toMatch(/^sops_/);
    await page.getByRole("button", { name: "Copy the secret" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const curl = (await page.getByTestId("curl-example").textContent()) ?? "";
    expect(curl).toContain(secret);

    const pasted = await run("bash", ["-euo", "pipefail", "-c", curl]);
    const accepted = JSON.parse(pasted.stdout) as { runId: string; status: string };
    expect(accepted.status).toBe("queued");

    // The run shows on the SOP's page, succeeded, with the e-mail in the outbox.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator(`li[data-run-id="${accepted.runId}"]`).getAttribute("data-status");
        },
        { timeout: 15_000 },
      )
      .toBe("succeeded");
    await page.locator(`li[data-run-id="${accepted.runId}"] summary`).click();
    await page.getByText('"greeting": "Welcome, Ada"').waitFor();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Outbox" }).click();
    await page.getByText("to ada@example.com · Welcome, Ada").waitFor();

    // Rotate: the pasted example (old secret, fresh timestamp) is refused at once.
    await page.goBack();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.getByTestId("trigger-secret").textContent()) ?? "";
    expect(rotated).not.toBe(secret);
    await new Promise((r) => setTimeout(r, 1000)); // a new second: not a replay, just the old secret
    const refused = await run("bash", ["-euo", "pipefail", "-c", curl]);
    expect(JSON.parse(refused.stdout)).toEqual({
      error: "Unauthorized",
      message: "Invalid signature",
      statusCode: 401,
    });
    await page.reload();
    await expect.poll(() => page.getByTestId("failure-count").textContent()).toBe("1");
    await page.close();
  });
});
