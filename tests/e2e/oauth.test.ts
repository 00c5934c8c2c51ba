/**
 * The "done when", in Chromium: an app registered in the console runs the authorization-code flow
 * with PKCE through a standard client library (oauth4webapi); the user signs in and approves in the browser;
 * the app calls /api/auth/me, refreshes, and loses access the moment the user revokes it in the console.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuite, finishSignUp } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const suite = browserSuite();
const insecure = { [oauth.allowInsecureRequests]: true };

// The third-party app's callback page.
const app = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html" });
  res.end("<!doctype html><title>Ledger Sync</title><h1>Connected to Atrium</h1>");
});
let callback = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      // Chromium keeps its connection to the app alive; close it rather than wait for it.
      app.closeAllConnections();
      app.close(() => resolve());
    }),
);

describe("OAuth in Chromium", () => {
  it("registers an app, signs in, consents, calls the API, refreshes, and is revoked", async () => {
    const email = uniqueEmail("oauth");
    const password = "a long enough password";
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.url}/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await finishSignUp(page, suite.server, email);
    await page.getByRole("heading", { name: "Your workspaces" }).waitFor();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "OAuth apps" }).click();
    await page.getByRole("heading", { level: 1, name: "OAuth apps" }).waitFor();
    await page.getByLabel("Name").fill("Ledger Sync");
    await page.getByLabel("Redirect URIs").fill(callback);
    await page.getByRole("button", { name: "Register app" }).click();
    const clientId = (await page.getByTestId("client-id").textContent()) ?? "";
    const clientSecret = (await page.getByTestId("client-secret").textContent()) ?? "";
    expect(clientId).toMatch(/^atr_client_/);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to Atrium" }).waitFor();

    // The app starts the flow.
    const issuer = new URL(suite.server.url);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
    );
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback,
      response_type: "code",
      scope: "read_profile",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();

    // The user: sent to sign in, back to the consent page, approves, lands on the app.
    await page.goto(url.toString());
    await page.getByRole("heading", { name: "Sign in to Atrium" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Allow Ledger Sync to use your Atrium account?" }).waitFor();
    await page.getByText("See your e-mail address, your plan and when your account was created").waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("heading", { name: "Connected to Atrium" }).waitFor();

    // The app: code → tokens → API → refresh.
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(clientSecret),
        params,
        callback,
        verifier,
        insecure,
      ),
    );
    const me = (token: string) =>
      fetch(`${suite.server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    const profile = await me(tokens.access_token);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ email });
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.ClientSecretBasic(clientSecret),
        tokens.refresh_token!,
        insecure,
      ),
    );
    expect((await me(refreshed.access_token)).status).toBe(200);

    // The user revokes it in the console: the app is out at once.
    await page.goto(`${suite.server.url}/settings/integrations/connected-apps`);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Revoke access of Ledger Sync" }).click();
    await page.getByText("Access revoked: the app's tokens stopped working at once.").waitFor();
    expect((await me(refreshed.access_token)).status).toBe(401);
    await page.close();
  });
});
