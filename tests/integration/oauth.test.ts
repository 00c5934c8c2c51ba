/**
 * The OAuth 2.0 provider, driven by an independent, strict client library (oauth4webapi) through discovery,
 * PKCE, code exchange, refresh, introspection and revocation, plus the negative cases, over real HTTP and a
 * real database. The user's part (sign-in, consent) is played with the console's forms.
 */
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { setStatus } from "~/modules/accounts/users.server";
import { Client, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT = "https://app.example.test/callback";

beforeAll(async () => {
  server = await startServer({ API_AUTH_FAILURES_PER_MINUTE: "10000" });
});
afterAll(() => server.close());

async function discover() {
  const issuer = new URL(server.url);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }),
  );
}

/** A developer registers an app in the console; its credentials are read off the page as they would copy them. */
async function registerApp(clientType: "confidential" | "public" = "confidential", redirectUris = REDIRECT) {
  const developer = await signUp(server.url, uniqueEmail("developer"));
  const response = await developer.client.post("/settings/integrations/oauth-apps", {
    intent: "register",
    name: "Ledger Sync",
    clientType,
    redirectUris,
  });
  const html = await response.text();
  expect(response.status, html.slice(0, 300)).toBe(200);
  const clientId = /data-testid="client-id">([^<]+)</.exec(html)![1]!;
  const secret = /data-testid="client-secret">([^<]+)</.exec(html)?.[1] ?? null;
  return { clientId, secret, developer: developer.client };
}

interface AuthorizeOptions {
  clientId: string;
  scope?: string;
  challenge?: string | null;
  method?: string;
  state?: string;
  redirectUri?: string | null;
  extra?: Record<string, string>;
}

function authorizationUrl(as: oauth.AuthorizationServer, o: AuthorizeOptions): URL {
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set("client_id", o.clientId);
  if (o.redirectUri !== null) url.searchParams.set("redirect_uri", o.redirectUri ?? REDIRECT);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", o.scope ?? "read_profile read_data");
  if (o.state) url.searchParams.set("state", o.state);
  if (o.challenge) {
    url.searchParams.set("code_challenge", o.challenge);
    url.searchParams.set("code_challenge_method", o.method ?? "S256");
  }
  for (const [k, v] of Object.entries(o.extra ?? {})) url.searchParams.set(k, v);
  return url;
}

/** The user opens the authorization URL, sees the consent page and approves (or denies); returns the redirect. */
async function consent(user: Client, url: URL, decision: "approve" | "deny" = "approve"): Promise<URL> {
  const page = await user.get(url.pathname + url.search);
  if (page.status === 302) return new URL(page.headers.get("location")!);
  const html = await page.text();
  expect(page.status, html.slice(0, 300)).toBe(200);
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)![1]!;
  const answer = await user.post(url.pathname + url.search, { query: url.search, ticket, decision });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get("location")!);
}

async function tokensFor(scope = "read_profile read_data"): Promise<{
  as: oauth.AuthorizationServer;
  app: Awaited<ReturnType<typeof registerApp>>;
  user: Client;
  email: string;
  tokens: oauth.TokenEndpointResponse;
}> {
  const as = await discover();
  const app = await registerApp();
  const { client: user, email } = await signUp(server.url, uniqueEmail("user"));
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const callback = await consent(
    user,
    authorizationUrl(as, {
      clientId: app.clientId,
      scope,
      challenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
    }),
  );
  const client: oauth.Client = { client_id: app.clientId };
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretBasic(app.secret!),
    params,
    REDIRECT,
    verifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return { as, app, user, email, tokens };
}

/** A form-encoded request to the token endpoint, as any client sends one. */
const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });

const me = (token: string) => fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });

describe("discovery", () => {
  it("publishes RFC 8414 metadata whose issuer matches exactly", async () => {
    const as = await discover();
    expect(as.issuer).toBe(new URL(server.url).origin);
    expect(as).toMatchObject({
      authorization_endpoint: `${server.url}/oauth/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
      introspection_endpoint: `${server.url}/oauth/introspect`,
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["read_profile", "read_data"],
    });
  });

  it("uses AUTH_URL as the issuer when set", async () => {
    const other = await startServer({ AUTH_URL: "https://auth.example.test/" });
    try {
      const body = (await (await fetch(`${other.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        string
      >;
      expect(body.issuer).toBe("https://auth.example.test");
      expect(body.token_endpoint).toBe("https://auth.example.test/oauth/token");
    } finally {
      await other.close();
    }
  });
});

describe("the authorization-code flow with PKCE", () => {
  it("issues tokens that call /api/auth/me, refresh with rotation, introspect, and revoke", async () => {
    const { as, app, email, tokens } = await tokensFor();
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "read_profile read_data" });
    const client: oauth.Client = { client_id: app.clientId };
    const auth = oauth.ClientSecretBasic(app.secret!);

    const profile = await me(tokens.access_token);
    expect(profile.status).toBe(200);
    expect(await profile.json()).toMatchObject({ email, tier: "free" });
    expect(profile.headers.get("x-ratelimit-limit")).toBe("100");

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await me(refreshed.access_token)).status).toBe(200);

    const introspected = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect(introspected).toMatchObject({
      active: true,
      client_id: app.clientId,
      username: email,
      scope: "read_profile read_data",
    });

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect((await me(refreshed.access_token)).status).toBe(401);
    const after = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect(after.active).toBe(false);
  });

  it("revokes the whole grant when a rotated refresh token comes back", async () => {
    const { as, app, tokens } = await tokensFor();
    const client: oauth.Client = { client_id: app.clientId };
    const auth = oauth.ClientSecretPost(app.secret!);
    const next = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    const replay = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(next.access_token)).status).toBe(401);
    const again = await oauth.refreshTokenGrantRequest(as, client, auth, next.refresh_token!, insecure);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("accepts the spec's exact token request from a confidential client that used no PKCE", async () => {
    const as = await discover();
    const app = await registerApp();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const callback = await consent(user, authorizationUrl(as, { clientId: app.clientId, scope: "read_profile" }));
    const code = callback.searchParams.get("code")!;
    expect(callback.searchParams.get("iss")).toBe(as.issuer);
    // Exactly the spec's form: grant_type, code, client_id, client_secret.
    const response = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: app.clientId,
        client_secret: app.secret!,
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read_profile" });
    expect(typeof body.access_token).toBe("string");
    expect(typeof body.refresh_token).toBe("string");

    // A second use of the code fails and revokes what the first issued.
    const second = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: app.clientId,
        client_secret: app.secret!,
      }),
    });
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(body.access_token as string)).status).toBe(401);
  });

  it("lets a public client in with PKCE and no secret, and refuses it without PKCE", async () => {
    const as = await discover();
    const app = await registerApp("public");
    expect(app.secret).toBeNull();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const refused = await user.get(
      authorizationUrl(as, { clientId: app.clientId, state: "s1" }).pathname +
        authorizationUrl(as, { clientId: app.clientId, state: "s1" }).search,
    );
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s1");

    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await consent(
      user,
      authorizationUrl(as, {
        clientId: app.clientId,
        state,
        challenge: await oauth.calculatePKCECodeChallenge(verifier),
      }),
    );
    const client: oauth.Client = { client_id: app.clientId };
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, callback, state),
        REDIRECT,
        verifier,
        insecure,
      ),
    );
    expect((await me(tokens.access_token)).status).toBe(200);
  });

  it("remembers consent for the same scopes, and asks again for more", async () => {
    const as = await discover();
    const app = await registerApp();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    await consent(user, authorizationUrl(as, { clientId: app.clientId, scope: "read_profile" }));
    const url = authorizationUrl(as, { clientId: app.clientId, scope: "read_profile", state: "again" });
    const direct = await user.get(url.pathname + url.search);
    expect(direct.status).toBe(302);
    const location = new URL(direct.headers.get("location")!);
    expect(location.searchParams.get("code")).toBeTruthy();
    expect(location.searchParams.get("state")).toBe("again");
    const wider = authorizationUrl(as, { clientId: app.clientId, scope: "read_profile read_data" });
    const page = await user.get(wider.pathname + wider.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Read the data of the workspaces you belong to");
  });
});

describe("the authorization endpoint's refusals", () => {
  let as: oauth.AuthorizationServer;
  let app: Awaited<ReturnType<typeof registerApp>>;
  let user: Client;
  const open = (url: URL) => user.get(url.pathname + url.search);
  beforeAll(async () => {
    as = await discover();
    app = await registerApp();
    ({ client: user } = await signUp(server.url, uniqueEmail("user")));
  });

  it("shows an error page, never a redirect, for an unknown client or an unregistered redirect URI", async () => {
    for (const url of [
      authorizationUrl(as, { clientId: "atr_client_nope", state: "x" }),
      authorizationUrl(as, { clientId: app.clientId, redirectUri: "https://evil.example/callback", state: "x" }),
      authorizationUrl(as, { clientId: app.clientId, redirectUri: `${REDIRECT}/more`, state: "x" }),
    ]) {
      const response = await open(url);
      expect(response.status, url.toString()).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("This authorization request cannot be completed");
    }
  });

  it.each([
    [{ method: "plain", challenge: "a".repeat(43) }, "invalid_request"],
    [{ scope: "read_profile write_everything" }, "invalid_scope"],
    [{ scope: "" }, "invalid_scope"],
    [{ extra: { response_type: "token" } }, "unsupported_response_type"],
  ])("redirects %o back with error %s and the state", async (options, error) => {
    const response = await open(authorizationUrl(as, { clientId: app.clientId, state: "keep-me", ...options }));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe(error);
    expect(location.searchParams.get("state")).toBe("keep-me");
  });

  it("sends a denial back as access_denied with the state", async () => {
    const location = await consent(user, authorizationUrl(as, { clientId: app.clientId, state: "d" }), "deny");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("d");
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("sends a signed-out user to sign in and back, and cannot be framed", async () => {
    const url = authorizationUrl(as, { clientId: app.clientId, state: "z" });
    const anonymous = await new Client(server.url).get(url.pathname + url.search);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`,
    );
    const page = await open(url);
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' https://app.example.test");
  });
});

describe("the token endpoint's refusals", () => {
  const post = tokenRequest;
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
  });

  async function codeFor(challenge?: string) {
    const as = await discover();
    const app = await registerApp();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const callback = await consent(
      user,
      authorizationUrl(as, { clientId: app.clientId, challenge: challenge ?? null }),
    );
    return { app, code: callback.searchParams.get("code")! };
  }

  it("answers RFC 6749 §5.2 errors", async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const { app, code } = await codeFor(await oauth.calculatePKCECodeChallenge(verifier));
    const base = { grant_type: "authorization_code", code, code_verifier: verifier };

    const wrongSecret = await post(base, basic(app.clientId, "atr_cs_wrong"));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await wrongSecret.json()).toMatchObject({ error: "invalid_client" });

    const both = await post({ ...base, client_secret: app.secret! }, basic(app.clientId, app.secret!));
    expect(await both.json()).toMatchObject({ error: "invalid_request" });

    const noVerifier = await post({ grant_type: "authorization_code", code }, basic(app.clientId, app.secret!));
    expect(await noVerifier.json()).toMatchObject({ error: "invalid_grant" });
    const badVerifier = await post(
      { ...base, code_verifier: oauth.generateRandomCodeVerifier() },
      basic(app.clientId, app.secret!),
    );
    expect(await badVerifier.json()).toMatchObject({ error: "invalid_grant" });
    const otherRedirect = await post({ ...base, redirect_uri: `${REDIRECT}/x` }, basic(app.clientId, app.secret!));
    expect(await otherRedirect.json()).toMatchObject({ error: "invalid_grant" });

    const grantType = await post(
      { grant_type: "password", username: "a", password: "b" },
      basic(app.clientId, app.secret!),
    );
    expect(await grantType.json()).toMatchObject({ error: "unsupported_grant_type" });
    const missing = await post({}, basic(app.clientId, app.secret!));
    expect(await missing.json()).toMatchObject({ error: "invalid_request" });

    const json = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(base),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });

    // The code itself was never spent by those failures: the right request still works, once.
    const ok = await post(base, basic(app.clientId, app.secret!));
    expect(ok.status).toBe(200);
    const refresh = ((await ok.json()) as { refresh_token: string }).refresh_token;
    const wider = await post(
      { grant_type: "refresh_token", refresh_token: refresh, scope: "read_profile admin" },
      basic(app.clientId, app.secret!),
    );
    expect(await wider.json()).toMatchObject({ error: "invalid_scope" });
  });

  it("refuses a code after 10 minutes, and a code of another client", async () => {
    const { app, code } = await codeFor();
    const other = await registerApp();
    const stolen = await post({ grant_type: "authorization_code", code }, basic(other.clientId, other.secret!));
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    setTestClock(() => new Date(Date.now() + 601_000));
    try {
      const late = await post({ grant_type: "authorization_code", code }, basic(app.clientId, app.secret!));
      expect(await late.json()).toMatchObject({ error: "invalid_grant" });
    } finally {
      setTestClock(undefined);
    }
  });
});

describe("access tokens in the token API", () => {
  it("needs read_profile for /api/auth/me: 403 insufficient_scope otherwise", async () => {
    const { tokens } = await tokensFor("read_data");
    const response = await me(tokens.access_token);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="read_profile"');
    expect(await response.json()).toEqual({
      error: "Forbidden",
      message: "This access token lacks the read_profile scope",
      statusCode: 403,
    });
  });

  it("stops the moment the user revokes the app under Connected apps", async () => {
    const { user, app, tokens } = await tokensFor();
    expect((await me(tokens.access_token)).status).toBe(200);
    const page = await (await user.get("/settings/integrations/connected-apps")).text();
    expect(page).toContain("Ledger Sync");
    const grantId = /name="grantId" value="([^"]+)"/.exec(page)![1]!;
    const revoked = await user.post("/settings/integrations/connected-apps", { grantId });
    expect(revoked.status).toBe(200);
    expect((await me(tokens.access_token)).status).toBe(401);
    const refresh = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token!,
        client_id: app.clientId,
        client_secret: app.secret!,
      }),
    });
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    expect(await (await user.get("/settings/integrations/connected-apps")).text()).toContain("No app has access");
  });

  it("answers 403 for a suspended user and 401 once the user is deleted", async () => {
    const { email, tokens } = await tokensFor();
    const user = await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await setStatus(server.db, email, "suspended");
    expect((await me(tokens.access_token)).status).toBe(403);
    await setStatus(server.db, email, "active");
    expect((await me(tokens.access_token)).status).toBe(200);
    await server.db.deleteFrom("users").where("id", "=", user.id).execute();
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it("stops working when the developer deletes the app", async () => {
    const { app, tokens } = await tokensFor();
    const response = await app.developer.post("/settings/integrations/oauth-apps", {
      intent: "delete",
      clientId: app.clientId,
    });
    expect(response.status).toBe(200);
    expect((await me(tokens.access_token)).status).toBe(401);
  });
});

describe("abuse limits", () => {
  it("throttles the token endpoint per client and the authorization pages per address", async () => {
    const strict = await startServer({
      OAUTH_TOKEN_REQUESTS_PER_MINUTE: "3",
      OAUTH_AUTHORIZE_REQUESTS_PER_MINUTE: "3",
    });
    try {
      const form = new URLSearchParams({ grant_type: "authorization_code", code: "x", client_id: "atr_client_flood" });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${strict.url}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
        });
        statuses.push(response.status);
        if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      // Another client is not held back by the first one's flood.
      const other = await fetch(`${strict.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "x", client_id: "atr_client_other" }),
      });
      expect(other.status).toBe(401);

      const pages: number[] = [];
      for (let i = 0; i < 4; i++) pages.push((await fetch(`${strict.url}/oauth/authorize?client_id=nope`)).status);
      expect(pages).toEqual([400, 400, 400, 429]);
    } finally {
      await strict.close();
    }
  });
});

describe("hardening", () => {
  const form = tokenRequest;

  it("revokes everything descended from a code used twice, refreshed tokens included", async () => {
    const as = await discover();
    const app = await registerApp();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const code = (await consent(user, authorizationUrl(as, { clientId: app.clientId }))).searchParams.get("code")!;
    const credentials = { client_id: app.clientId, client_secret: app.secret! };
    const first = (await (await form({ grant_type: "authorization_code", code, ...credentials })).json()) as Record<
      string,
      string
    >;
    const refreshed = (await (
      await form({ grant_type: "refresh_token", refresh_token: first.refresh_token!, ...credentials })
    ).json()) as Record<string, string>;
    expect((await me(refreshed.access_token!)).status).toBe(200);
    const again = await form({ grant_type: "authorization_code", code, ...credentials });
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(refreshed.access_token!)).status).toBe(401);
    const chain = await form({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token!, ...credentials });
    expect(await chain.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("treats two simultaneous uses of a refresh token as reuse: one wins, then the grant is revoked", async () => {
    const { app, tokens } = await tokensFor();
    const credentials = { client_id: app.clientId, client_secret: app.secret! };
    const answers = await Promise.all(
      [1, 2].map(() => form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...credentials })),
    );
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Record<string, string>[];
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = bodies.find((b) => b.access_token)!;
    expect((await me(winner.access_token!)).status).toBe(401);
  });

  it("narrows the access token only when a refresh asks for fewer scopes", async () => {
    const { app, tokens } = await tokensFor();
    const credentials = { client_id: app.clientId, client_secret: app.secret! };
    const narrow = (await (
      await form({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token!,
        scope: "read_data",
        ...credentials,
      })
    ).json()) as Record<string, string>;
    expect(narrow.scope).toBe("read_data");
    expect((await me(narrow.access_token!)).status).toBe(403);
    const back = (await (
      await form({ grant_type: "refresh_token", refresh_token: narrow.refresh_token!, ...credentials })
    ).json()) as Record<string, string>;
    expect(back.scope).toBe("read_profile read_data");
  });

  it("shows introspection the e-mail address only with read_profile", async () => {
    const { app, tokens } = await tokensFor("read_data");
    const response = await fetch(`${server.url}/oauth/introspect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: app.clientId, client_secret: app.secret! }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.active).toBe(true);
    expect(body.username).toBeUndefined();
    expect(body.sub).toEqual(expect.any(String));
  });

  it("does not let an access token act where a route names no scope (SOP trigger rotation)", async () => {
    const { tokens } = await tokensFor();
    const response = await fetch(`${server.url}/api/sops/x/triggers/y/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      message: "This route accepts API keys only, not OAuth access tokens",
    });
  });

  it("redirects errors only for a signed-in user, and asks a public client's user every time", async () => {
    const as = await discover();
    const app = await registerApp("public");
    const bad = authorizationUrl(as, { clientId: app.clientId, scope: "everything", state: "s" });
    const anonymous = await new Client(server.url).get(bad.pathname + bad.search);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);

    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const verifier = oauth.generateRandomCodeVerifier();
    const url = authorizationUrl(as, {
      clientId: app.clientId,
      challenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    await consent(user, url);
    const second = await user.get(url.pathname + url.search);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("Allow Ledger Sync to use your Atrium account?");
  });

  it("refuses an Approve that does not match the page the signed-in user saw", async () => {
    const as = await discover();
    const app = await registerApp();
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const url = authorizationUrl(as, { clientId: app.clientId, state: "t" });
    const html = await (await user.get(url.pathname + url.search)).text();
    const ticket = /name="ticket" value="([^"]+)"/.exec(html)![1]!;
    const other = authorizationUrl(as, { clientId: app.clientId, state: "other" });
    const mismatch = await user.post(url.pathname + url.search, { query: other.search, ticket, decision: "approve" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("This consent page is out of date");
    const { client: someoneElse } = await signUp(server.url, uniqueEmail("user"));
    const stolen = await someoneElse.post(url.pathname + url.search, {
      query: url.search,
      ticket,
      decision: "approve",
    });
    expect(stolen.status).toBe(400);
  });

  it("lets a browser app call the token endpoint from its own origin (CORS, no cookies)", async () => {
    const preflight = await fetch(`${server.url}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://spa.example.test", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const crossSite = await form(
      { grant_type: "authorization_code", code: "nope", client_id: "atr_client_nope" },
      { origin: "https://spa.example.test", "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(401);
    expect(crossSite.headers.get("access-control-allow-origin")).toBe("*");
    expect(await crossSite.json()).toMatchObject({ error: "invalid_client" });
  });

  it("accepts any port on a registered loopback redirect URI (native apps), and nothing else", async () => {
    const as = await discover();
    const app = await registerApp("public", "http://127.0.0.1/callback");
    const { client: user } = await signUp(server.url, uniqueEmail("user"));
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const ok = authorizationUrl(as, {
      clientId: app.clientId,
      redirectUri: "http://127.0.0.1:53682/callback",
      challenge,
    });
    expect((await user.get(ok.pathname + ok.search)).status).toBe(200);
    const otherPath = authorizationUrl(as, {
      clientId: app.clientId,
      redirectUri: "http://127.0.0.1:53682/other",
      challenge,
    });
    expect((await user.get(otherPath.pathname + otherPath.search)).status).toBe(400);
  });
});
