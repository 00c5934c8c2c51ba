/** A new user, in Chromium, generates a key under API Keys, copies it, and calls /api/auth/me with it. */
import { describe, expect, it } from "vitest";
import { browserSuite, finishSignUp } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const suite = browserSuite({ permissions: ["clipboard-read", "clipboard-write"] });

describe("API keys in Chromium", () => {
  it("generates a key, copies it, calls /api/auth/me with it, then revokes it", async () => {
    const email = uniqueEmail("keys");
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await finishSignUp(page, suite.server, email);
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { level: 1, name: "API Keys" }).waitFor();
    await page.getByText("No keys yet").waitFor();
    await page.getByLabel("Name").fill("My integration");
    await page.getByRole("button", { name: "Generate New Key" }).click();

    const shown = page.getByTestId("new-api-key");
    await shown.waitFor();
    const key = (await shown.textContent()) ?? "";
    expect(key).toMatch(/^atr_live_[0-9A-Za-z]{36}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(key);
    expect(await page.locator("pre code").textContent()).toBe(
      `curl -H "Authorization: Bearer ${key}" ${suite.server.url}/api/auth/me`,
    );

    // What the curl line does.
    const res = await fetch(`${suite.server.url}/api/auth/me`, { headers: { authorization: `Bearer ${copied}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email, tier: "free" });

    // Shown once: a fresh visit lists the key by its prefix only.
    await page.reload();
    await expect.poll(() => page.getByTestId("new-api-key").count()).toBe(0);
    const row = page.locator(`tr[data-key-prefix="${key.slice(0, 15)}"]`);
    await expect.poll(() => row.textContent()).toContain("1 / 100");
    expect(await page.content()).not.toContain(key);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke My integration" }).click();
    await page.getByText("Key revoked: it stopped working at once.").waitFor();
    const after = await fetch(`${suite.server.url}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    await page.close();
  });
});
