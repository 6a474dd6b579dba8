/**
 * The proxies whose `X-Forwarded-For` Wasl believes (`WASL_TRUST_PROXY`): behind a load balancer,
 * the client address a login or a metrics scrape is limited by is the one the proxy saw, not the
 * proxy's own.
 */
import { Context, type Effect, Result } from "effect"
import { HttpMiddleware, type HttpServerRequest, type HttpServerResponse } from "effect/http"
import { IpNetwork } from "effect/net"

/**
 * The networks of the trusted proxies; none by default, and then `X-Forwarded-For` is ignored
 * (anyone can send it). With some, a request whose peer is one of them has its client address
 * taken from `X-Forwarded-For`, read from the right past the trusted entries (Effect's
 * `HttpMiddleware.xForwardedHeaders`).
 */
export const TrustedProxies: Context.Reference<ReadonlyArray<IpNetwork.IpNetwork>> = Context.Reference<
  ReadonlyArray<IpNetwork.IpNetwork>
>("@wasl/http/TrustedProxies", { defaultValue: () => [] })

/**
 * Reads a comma-separated list of networks (`10.0.0.0/8, fd00::/8`) or single addresses
 * (`127.0.0.1`); empty text is none. Fails with the entry that is neither.
 */
export const parseTrustedProxies = (text: string): Result.Result<ReadonlyArray<IpNetwork.IpNetwork>, string> => {
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const entry of text.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    const cidr = entry.includes("/") ? entry : `${entry}/${entry.includes(":") ? 128 : 32}`
    const network = IpNetwork.fromString(cidr)
    if (Result.isFailure(network)) return Result.fail(entry)
    networks.push(network.success)
  }
  return Result.succeed(networks)
}

/**
 * Behind `trustedProxies`, an app that sees the client address (and host and scheme) they
 * forward; with none, the app itself.
 */
export const forwardedFrom = (
  trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>
): <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  trustedProxies.length === 0 ? (app) => app : HttpMiddleware.xForwardedHeaders({ trustedProxies })
