/** `WebhookTransportHttp`: webhook requests over node:https. */
import {
  WebhookTransport,
  type WebhookRequest,
  type WebhookResponse,
  classifyAddress,
  isIpLiteral
} from "@wasl/core/Webhooks"
import { Clock, Duration, Effect, Layer } from "effect"
import * as Dns from "node:dns"
import * as Fs from "node:fs"
import * as Https from "node:https"
import type * as Net from "node:net"
import * as Tls from "node:tls"
import { urlToHttpOptions } from "node:url"

/** How much of an answer's body is kept for the delivery log (the port's contract). */
export const RESPONSE_EXCERPT_BYTES = 4096
/** How much of an answer's body is read at all before the connection is dropped. */
const RESPONSE_READ_LIMIT = 64 * 1024

/** Options of `WebhookTransportHttp`; each has a default. */
export interface WebhookTransportHttpOptions {
  /** Lift the address rule (loopback, private ...) for development and tests. Default false. */
  readonly allowPrivate?: boolean | undefined
  /** A PEM file of extra CA certificates to trust beside Node's roots. */
  readonly caFile?: string | undefined
  /** Concurrent connections per host (keep-alive pool size). Default 64. */
  readonly maxSocketsPerHost?: number | undefined
}

/** An error a socket's lookup reports when it refuses the resolved addresses. */
class ForbiddenAddressError extends Error {
  readonly code = "EWASLFORBIDDEN"
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<Dns.LookupAddress>, family?: number) => void

/**
 * A `net.LookupFunction` that resolves with `dns.lookup` and refuses when any address is
 * forbidden. It answers in the form asked for (`all` or a single address), with exactly the
 * addresses it checked, so the connection can only go to a checked address. Internal plumbing of
 * `WebhookTransportHttp`.
 */
export const guardedLookup = (allowPrivate: boolean): Net.LookupFunction =>
  ((hostname: string, options: Dns.LookupOptions, callback: LookupCallback) => {
    Dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      const refused = allowPrivate ? undefined : addresses.find((a) => !classifyAddress(a.address).allowed)
      if (refused !== undefined) {
        const verdict = classifyAddress(refused.address)
        const reason = verdict.allowed ? "" : ` (${verdict.reason})`
        return callback(
          new ForbiddenAddressError(`The host ${hostname} resolves to ${refused.address}, an address webhooks may not reach${reason}.`),
          []
        )
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}.`), { code: "ENOTFOUND" }), [])
      if (options.all === true) return callback(null, addresses)
      const first = addresses[0]!
      return callback(null, first.address, first.family)
    })
  }) as Net.LookupFunction

/** How many URLs' targets a transport keeps (`targetCache`). */
const TARGET_CACHE_SIZE = 1024

type Failed = { readonly _tag: "Failed"; readonly error: string }
type Answered = { readonly _tag: "Answered"; readonly status: number; readonly body: string }

/** Where a URL's requests go: its host and request options, or why it is never called. */
type Target = { readonly _tag: "Target"; readonly host: string; readonly options: Https.RequestOptions } | Failed

const targetOf = (text: string): Target => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { _tag: "Failed", error: "The URL is not valid." }
  }
  if (url.protocol !== "https:") return { _tag: "Failed", error: "Only https URLs are called." }
  const host = url.hostname.replace(/^\[|\]$/g, "")
  if (isIpLiteral(host)) return { _tag: "Failed", error: "The URL host is an IP address; webhooks call domain names only." }
  // What `https.request(url, …)` makes of a URL, made once.
  return { _tag: "Target", host, options: urlToHttpOptions(url) }
}

/**
 * `targetOf`, remembered for the last `TARGET_CACHE_SIZE` URLs: a worker sends many requests to
 * each webhook's URL, and parsing and checking it was about 2 % of its CPU. The verdict is a pure
 * function of the URL's text; the address checks, which are not, run at every connection.
 */
const targetCache = () => {
  const targets = new Map<string, Target>()
  return (text: string): Target => {
    let target = targets.get(text)
    if (target === undefined) {
      target = targetOf(text)
      if (targets.size >= TARGET_CACHE_SIZE) targets.delete(targets.keys().next().value!)
      targets.set(text, target)
    }
    return target
  }
}

/** A readable reason for a failed request. */
const describeError = (error: unknown, host: string): string => {
  if (error instanceof ForbiddenAddressError) return error.message
  const e = error as NodeJS.ErrnoException & { reason?: string }
  switch (e?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `The host ${host} could not be resolved.`
    case "ECONNREFUSED":
      return `Connection refused by ${host}.`
    case "ECONNRESET":
      return `The connection to ${host} was reset.`
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `The host ${host} is unreachable.`
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "CERT_HAS_EXPIRED":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `The TLS certificate of ${host} is not trusted (${e.code}).`
    default:
      return e?.message ? `Request failed: ${e.message}` : "Request failed."
  }
}

/**
 * Sends one request; resolves with the answer (status + first 4 KiB) or the failure. Cleans up
 * (destroys the request) when the fiber is interrupted.
 */
const send = (agent: Https.Agent, lookup: Net.LookupFunction, target: Target, request: WebhookRequest) =>
  Effect.callback<Answered | Failed>(
    (resume) => {
      if (target._tag === "Failed") {
        resume(Effect.succeed(target))
        return
      }
      const host = target.host
      const timeoutMs = Math.max(1, Duration.toMillis(request.timeout))
      let settled = false
      const finish = (result: Answered | Failed) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(Effect.succeed(result))
      }
      const body = Buffer.from(request.body, "utf8")
      const req = Https.request({
        ...target.options,
        method: "POST",
        agent,
        lookup,
        headers: { ...request.headers, "Content-Length": String(body.length) }
      }, (res) => {
        const chunks: Array<Buffer> = []
        let kept = 0
        let read = 0
        const status = res.statusCode ?? 0
        const answered = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8")
          finish({ _tag: "Answered", status, body: excerpt })
        }
        res.on("data", (chunk: Buffer) => {
          read += chunk.length
          if (kept < RESPONSE_EXCERPT_BYTES) {
            chunks.push(chunk)
            kept += chunk.length
          }
          if (read > RESPONSE_READ_LIMIT) {
            // Enough: answer with what we have and drop this connection rather than read on.
            answered()
            res.destroy()
          }
        })
        // Answer on the next turn: by then the agent has the socket back in its free pool, so the
        // caller's next request to the host reuses it instead of opening another.
        res.on("end", () => setImmediate(answered))
        res.on("error", (error) => finish({ _tag: "Failed", error: describeError(error, host) }))
        // Closed without "end" (and without an error): the answer was cut short.
        res.on("close", () => {
          if (!res.complete) finish({ _tag: "Failed", error: `The connection to ${host} closed before the answer ended.` })
        })
      })
      const timer = setTimeout(() => {
        finish({ _tag: "Failed", error: `Timed out after ${timeoutMs} ms.` })
        req.destroy()
      }, timeoutMs)
      req.on("error", (error) => finish({ _tag: "Failed", error: describeError(error, host) }))
      req.end(body)
      return Effect.sync(() => {
        settled = true
        clearTimeout(timer)
        req.destroy()
      })
    }
  )

/**
 * `WebhookTransport` over node:https: how every validation challenge and delivery attempt leaves
 * the service.
 *
 * - https only; a host that is an IP literal is refused (the URL rule of create/update, kept
 *   here too because a request could be built from a stored URL that predates a rule change).
 *   Both depend on the URL's text alone, so each URL is parsed and checked once (the last 1,024
 *   are kept); the address rule below depends on DNS and is applied at every connection.
 * - SSRF at connection time: the socket's `lookup` resolves the name itself and refuses the
 *   connection when ANY address it resolves to is forbidden by core's address-policy.ts. The
 *   address checked is the one the socket then dials (the lookup hands exactly the checked
 *   addresses to the connect), so a DNS answer that changed since the URL was accepted (DNS
 *   rebinding) is caught. `allowPrivate` (`WASL_WEBHOOK_ALLOW_PRIVATE`) lifts the address rule
 *   for development and tests, never the IP-literal one.
 * - Redirects are never followed: a 3xx is answered as it is, and the caller counts it as a
 *   failed attempt.
 * - One deadline per request (`request.timeout`, 30 s by default): connect, TLS, sending and the
 *   answer all fall under it.
 * - Keep-alive: one `https.Agent` for the process reuses TLS connections per host (the reason
 *   deliveries to one endpoint cost a request, not a handshake). It is destroyed with the layer.
 * - Extra trust: `caFile` (`WASL_WEBHOOK_CA_FILE`) is added to Node's root certificates, for a
 *   local receiver with its own CA.
 * - It never fails: every way a request goes wrong is a `Failed` answer with a readable reason;
 *   only the first 4 KiB of an answer's body are kept, and at most 64 KiB are read before the
 *   connection is dropped, so a huge answer costs nothing.
 *
 * The keep-alive agent is destroyed when the layer's scope ends.
 */
export const WebhookTransportHttp = (options: WebhookTransportHttpOptions = {}): Layer.Layer<WebhookTransport> =>
  Layer.effect(
    WebhookTransport,
    Effect.gen(function*() {
      const extraCa = options.caFile === undefined || options.caFile === ""
        ? []
        : [yield* Effect.sync(() => Fs.readFileSync(options.caFile!, "utf8"))]
      const lookup = guardedLookup(options.allowPrivate === true)
      const targetFor = targetCache()
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new Https.Agent({
            keepAlive: true,
            maxSockets: options.maxSocketsPerHost ?? 64,
            maxFreeSockets: options.maxSocketsPerHost ?? 64,
            lookup,
            // One secure context built once, not a `ca` list: the agent keys its socket pools by a
            // name made of its options, and a `ca` option (Node's ~140 roots plus ours) would be
            // concatenated into that name on every request.
            ...(extraCa.length === 0 ? {} : { secureContext: Tls.createSecureContext({ ca: [...Tls.rootCertificates, ...extraCa] }) })
          })
        ),
        (agent) => Effect.sync(() => agent.destroy())
      )
      return WebhookTransport.of({
        post: (request) =>
          Effect.gen(function*() {
            const started = yield* Clock.currentTimeMillis
            const result = yield* send(agent, lookup, targetFor(request.url), request)
            const durationMillis = Math.max(0, (yield* Clock.currentTimeMillis) - started)
            return { ...result, durationMillis } satisfies WebhookResponse as WebhookResponse
          })
      })
    })
  )
