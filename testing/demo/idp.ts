/**
 * A local OpenID provider (oidc-provider, certified) for the studio's demo and tests: fictional users
 * with passwords, groups in the ID token, authorization code with PKCE required, a client that
 * authenticates with client_secret_basic, `prompt=login` honoured, RP-initiated logout. Never the
 * firm's IdP: it keeps everything in memory and runs on loopback only.
 *
 * Its socket is bound first (so the issuer URL is known), the provider made once the studio's address
 * is known (`register`), since the client's redirect URI names it.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { html, raw } from "hono/html";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { listenAgain, listenOnLoopback } from "../../lib/ports.ts";
import { DEMO_PEOPLE, type DemoPerson } from "./people.ts";

export interface DemoUser extends DemoPerson {
  sub: string;
  password: string;
}

export interface DemoIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  users: DemoUser[];
  /** Makes the provider, with the studio's callback and sign-out addresses as the client's. */
  register(studioUrl: string): void;
  /** Stops answering (connections are refused) until `restore()`; its sessions are kept. */
  outage(): Promise<void>;
  /** Listens again at the same address. */
  restore(): Promise<void>;
  stop(): Promise<void>;
}

const page = (title: string, body: unknown) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 24rem;
            margin: 3rem auto;
            padding: 0 1rem;
          }
          label {
            display: block;
            margin: 0.75rem 0 0.25rem;
            font-weight: 600;
          }
          input {
            font: inherit;
            width: 100%;
            padding: 0.4rem;
            box-sizing: border-box;
          }
          button {
            font: inherit;
            font-weight: 600;
            margin-top: 1rem;
            padding: 0.5rem 1rem;
          }
          .error {
            color: #b91c1c;
          }
        </style>
      </head>
      <body>
        <p>Example Identity (demo)</p>
        ${body}
      </body>
    </html>`.toString();

function loginForm(uid: string, error = "", login = "") {
  return page(
    "Sign in · Example Identity",
    html`<h1>Sign in</h1>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
      <form method="post" action="/interaction/${uid}/login">
        <label for="login">E-mail</label><input id="login" name="login" type="email" autocomplete="username" value="${login}" required />
        <label for="password">Password</label
        ><input id="password" name="password" type="password" autocomplete="current-password" required /><button type="submit">
          Sign in
        </button>
      </form>`,
  );
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startDemoIdp(people: readonly DemoPerson[] = DEMO_PEOPLE): Promise<DemoIdp> {
  const users: DemoUser[] = people.map((person, i) => ({
    ...person,
    sub: `user-${i + 1}`,
    password: randomBytes(9).toString("base64url"),
  }));
  const clientId = "content-studio";
  const clientSecret = randomBytes(24).toString("base64url");
  let provider: Provider | undefined;
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const server = createServer((req, res) => {
    if (!provider || !handler) {
      res.writeHead(503).end("The demo IdP is starting.\n");
      return;
    }
    void interaction(provider, req, res).then((done) => done || handler!(req, res));
  });
  const port = await listenOnLoopback(server);
  const issuer = `http://127.0.0.1:${port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  };

  async function interaction(op: Provider, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(new URL(req.url ?? "/", issuer).pathname);
    if (!match) return false;
    const send = (status: number, body: string) =>
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(body);
    try {
      const details = await op.interactionDetails(req, res);
      if (req.method === "GET") return (send(200, loginForm(match[1]!)), true);
      const form = await formOf(req);
      const login = (form.get("login") ?? "").trim().toLowerCase();
      const user = users.find((u) => u.email === login && u.password === form.get("password"));
      if (!user) return (send(200, loginForm(match[1]!, "That e-mail and password do not match.", login)), true);
      if (details.prompt.name !== "login") throw new Error(`unexpected prompt ${details.prompt.name}`);
      await op.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
    } catch (error) {
      send(
        400,
        page(
          "Sign-in failed",
          html`<h1>Sign-in failed</h1>
            <p>${(error as Error).message}</p>`,
        ),
      );
    }
    return true;
  }

  const keyOf = () => ({
    ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
    kid: randomUUID(),
    use: "sig",
    alg: "RS256",
  });

  return {
    issuer,
    clientId,
    clientSecret,
    users,
    register(studioUrl) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [`${studioUrl}/auth/callback`],
            post_logout_redirect_uris: [`${studioUrl}/auth/signed-out`],
            token_endpoint_auth_method: "client_secret_basic",
            response_types: ["code"],
            grant_types: ["authorization_code"],
          },
        ],
        jwks: { keys: [keyOf() as never] },
        cookies: { keys: [randomBytes(32).toString("base64url")] },
        pkce: { required: () => true },
        // A demo's lifetimes, stated (oidc-provider asks for them): sign-in an hour, the IdP's session a working day.
        ttl: { Interaction: 3600, Session: 8 * 3600, Grant: 8 * 3600, IdToken: 3600, AccessToken: 3600, AuthorizationCode: 60 },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "groups"] },
        // The claims in the ID token itself: the studio reads them there (it calls no API).
        conformIdTokenClaims: false,
        features: {
          devInteractions: { enabled: false },
          rpInitiatedLogout: {
            enabled: true,
            logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
              ctx.body = page(
                "Sign out · Example Identity",
                html`<h1>Sign out of Example Identity?</h1>
                  ${raw(form)}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
              );
            },
          },
        },
        interactions: { url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        async findAccount(_ctx: KoaContextWithOIDC, id: string) {
          const user = users.find((u) => u.sub === id);
          if (!user) return undefined;
          return {
            accountId: id,
            claims: async () => ({ sub: id, email: user.email, email_verified: true, name: user.name, groups: user.groups }),
          };
        },
        // The studio is the firm's own application: no consent screen, the grant is made on first use.
        async loadExistingGrant(ctx: KoaContextWithOIDC) {
          const oidc = ctx.oidc;
          const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(oidc.client!.clientId);
          if (grantId) return oidc.provider.Grant.find(grantId);
          const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
          grant.addOIDCScope("openid email profile");
          await grant.save();
          return grant;
        },
      });
      handler = provider.callback();
    },
    outage: () => (server.listening ? close() : Promise.resolve()),
    restore: () => (server.listening ? Promise.resolve() : listenAgain(server, port)),
    stop: () => (server.listening ? close() : Promise.resolve()),
  };
}
