/* The REST client: the player's own token, kept in sessionStorage (this tab only, never a cookie), sent as
 * `Authorization: Token ...`; cookies are never sent (credentials: "omit"), so the page is a plain API
 * client with the player's rights and no more. */
import { t } from "./i18n.js";
import * as i18n from "./i18n.js";

const BASE = document.documentElement.dataset.api || "/api/v1";
const STORE = "ramino.session";

/* The request fields an error can name, as a person calls them (others are shown as they are). */
const FIELDS = {
  username: () => t("Username"),
  password: () => t("Password"),
  buy_in: () => t("Buy-in"),
  code: () => t("Table code"),
  game: () => t("Game"),
  bots: () => t("How many bots"),
  level: () => t("Their strength"),
};

class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || t("The server answered %(status)s.", { status }));
    this.status = status;
    this.code = error.code || `http.${status}`;
    this.details = error.details || {};
  }

  /** The message with any field errors, for a person to read. */
  describe() {
    const fields = this.details.fields;
    if (!fields) return this.message;
    const parts = Object.entries(fields).map(([name, errors]) => {
      const text = Array.isArray(errors) ? errors.join(" ") : String(errors);
      if (name === "non_field_errors") return text;
      return `${FIELDS[name] ? FIELDS[name]() : name}: ${text}`;
    });
    return parts.join(" ") || this.message;
  }
}

function session() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) || "null");
  } catch (_) {
    return null;
  }
}

function setSession(value) {
  if (value) sessionStorage.setItem(STORE, JSON.stringify(value));
  else sessionStorage.removeItem(STORE);
  window.dispatchEvent(new CustomEvent("ramino:session"));
}

/** A fresh random Idempotency-Key per intended action (crypto.getRandomValues works on plain HTTP too). */
function newKey() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function call(method, path, options) {
  const { body, headers, signal } = options || {};
  // Cookies are never sent, so the page's language travels in Accept-Language: the API's messages match it.
  const sent = { Accept: "application/json", "Accept-Language": i18n.lang(), ...(headers || {}) };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  const current = session();
  if (current && current.token) sent.Authorization = `Token ${current.token}`;
  const url = /^https?:/.test(path) ? path : BASE + path;
  const response = await fetch(url, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
    signal,
  });
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (_) {
      data = null;
    }
  }
  if (response.status === 401 && current) {
    // Expired, revoked or logged out elsewhere: this tab signs in again.
    setSession(null);
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data, headers: response.headers };
}

const get = (path, options) => call("GET", path, options).then((r) => r.data);
const post = (path, body, options) => call("POST", path, { ...(options || {}), body }).then((r) => r.data);
const put = (path, body, options) => call("PUT", path, { ...(options || {}), body }).then((r) => r.data);

async function signIn(username, password) {
  const answer = await post("/auth/token/", { username, password });
  setSession({ token: answer.token, expiry: answer.expiry, username });
}

/* Registers (`dateOfBirth` YYYY-MM-DD), signs in with the name as the server stored it, and answers
   {username, welcome_chips}. */
async function register(username, password, dateOfBirth) {
  const answer = await post("/auth/register/", { username, password, date_of_birth: dateOfBirth });
  await signIn(answer.username, password);
  return answer;
}

async function signOut() {
  try {
    await post("/auth/logout/");
  } catch (_) {
    // the token may already be gone; this tab forgets it either way
  }
  setSession(null);
}

export { ApiError, call, get, post, put, session, setSession, newKey, signIn, register, signOut };
