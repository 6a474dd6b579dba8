/**
 * Where the client reached Wasl, for the absolute URLs of an answer and the session cookie's
 * `Secure` flag: the public URL (`PublicUrl`) when one is set; otherwise the request's own scheme
 * and Host. Nothing here reads a forwarded header: the boundary applies `X-Forwarded-Proto` and
 * `X-Forwarded-Host` to the request only when it comes from one of the `TrustedProxies`, since
 * anyone else can send them.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { PublicUrl } from "@wasl/core/Deployment"

/** A host name, IPv4 address or bracketed IPv6 address, with an optional port: nothing a URL could be bent with. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i

/** The request's Host when it is one; `localhost` when it is missing or is not a host (a path, a query, a list). */
const hostOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const host = request.headers.host
  return host !== undefined && HOST.test(host) && URL.canParse(`http://${host}`) ? host : "localhost"
}

/**
 * The base of the absolute URLs in the answer to `request`, without a trailing slash: the public
 * URL, else `http://` or (from a trusted proxy that says so) `https://` and the request's Host.
 */
export const linkBase = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<string> =>
  Effect.map(PublicUrl, (base) => base ?? `${request.protocol === "https" ? "https" : "http"}://${hostOf(request)}`)


/**
 * Whether the client reached Wasl over HTTPS: the public URL is an https one, or a trusted proxy
 * forwarded `X-Forwarded-Proto: https`.
 */
export const reachedOverHttps = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<boolean> =>
  Effect.map(PublicUrl, (base) => base?.startsWith("https:") === true || request.protocol === "https")
