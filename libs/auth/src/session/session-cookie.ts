import { parse, serialize } from 'cookie';

/** The dashboard's session cookie: it carries the credential the page signed in with. */
export const SESSION_COOKIE = 'switchyard_session';

/** Where the cookie is sent: the dashboard's own routes and the API it reads, nothing else. */
const COOKIE_PATH = '/';

/**
 * The credential a request's session cookie carries, as the Authorization header would carry it;
 * undefined without one. The guard consults it only when the request has no Authorization header,
 * so a client's own header always wins.
 */
export function sessionAuthorization(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader || !cookieHeader.includes(SESSION_COOKIE)) return undefined;
  const credential = parse(cookieHeader)[SESSION_COOKIE];
  return credential ? `Bearer ${credential}` : undefined;
}

/**
 * The Set-Cookie value that opens a session. HttpOnly: no script on the page can read the
 * credential; SameSite=Strict: no other site's page can make the browser send it; Secure when the
 * service is reached over HTTPS. No Max-Age: it ends with the browser session or on sign-out.
 */
export function openSessionCookie(credential: string, secure: boolean): string {
  return serialize(SESSION_COOKIE, credential, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: COOKIE_PATH,
  });
}

/** The Set-Cookie value that ends a session: the same cookie, expired. */
export function closedSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: COOKIE_PATH,
    maxAge: 0,
  });
}
