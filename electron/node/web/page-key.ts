// Browser mode's credentials (bridge-server.ts), and why there are three:
// - the access token, printed in the URL (`?token=…`): only the person at the terminal has it;
// - the page cookie, traded for the token on the first visit: it lets the browser load the UI's
//   files (public code, nothing secret) without the token in the address bar. Cookies ignore
//   ports, so every other service on 127.0.0.1 receives it too (issue 11, item 5): on its own it
//   must not open the API;
// - the page key, handed to the page once, in the fragment of the exchange's redirect (browsers
//   never send a fragment to any server), kept by the page in sessionStorage and offered as the
//   WebSocket subprotocol. A service that captured the cookie has no way to learn it: the page
//   key is an HMAC under the access token, so nothing the server serves for the cookie holds it.
// Comparisons are constant-time whatever the candidate's length (both sides hashed first).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 24 random bytes = 192 bits, base64url: as strong as Jupyter's token and cookie-safe as is. */
const SECRET_BYTES = 24;
/** A page key is `<nonce>.<hmac>`; 16 bytes of nonce make every page's key different. */
const NONCE_BYTES = 16;
/** Bounded before hashing: a header of megabytes is refused without work. */
const MAX_CANDIDATE_CHARS = 256;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
function sameSecret(candidate: string, expectedDigest: Buffer): boolean {
  return candidate.length <= MAX_CANDIDATE_CHARS && timingSafeEqual(digest(candidate), expectedDigest);
}

export interface BrowserCredentials {
  /** The access token of the printed URL. */
  readonly token: string;
  /** The value of the page cookie (never the token). */
  readonly cookieValue: string;
  tokenMatches(candidate: string): boolean;
  cookieMatches(candidate: string): boolean;
  /** A fresh key for one page (one token exchange). */
  newPageKey(): string;
  pageKeyMatches(candidate: string): boolean;
}

export function createBrowserCredentials(): BrowserCredentials {
  const token = randomBytes(SECRET_BYTES).toString('base64url');
  const cookieValue = randomBytes(SECRET_BYTES).toString('base64url');
  const tokenDigest = digest(token);
  const cookieDigest = digest(cookieValue);
  const mac = (nonce: string) => createHmac('sha256', token).update(`page-key:${nonce}`).digest('base64url');
  return {
    token,
    cookieValue,
    tokenMatches: (candidate) => sameSecret(candidate, tokenDigest),
    cookieMatches: (candidate) => sameSecret(candidate, cookieDigest),
    newPageKey() {
      const nonce = randomBytes(NONCE_BYTES).toString('base64url');
      return `${nonce}.${mac(nonce)}`;
    },
    pageKeyMatches(candidate) {
      const dot = candidate.indexOf('.');
      if (dot <= 0 || candidate.length > MAX_CANDIDATE_CHARS) return false;
      return sameSecret(candidate, digest(`${candidate.slice(0, dot)}.${mac(candidate.slice(0, dot))}`));
    },
  };
}
