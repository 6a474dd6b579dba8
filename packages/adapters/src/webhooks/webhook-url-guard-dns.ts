/** `WebhookUrlGuardDns`: webhook URLs checked against the system resolver. */
import {
  checkWebhookUrlSyntax,
  classifyAddress,
  type UrlCheck,
  WebhookUrlGuard,
  WebhookUrlMessage
} from "@wasl/core/Webhooks"
import { Duration, Effect, Layer } from "effect"
import { lookup } from "node:dns/promises"

/** Options of `WebhookUrlGuardDns`. */
export interface WebhookUrlGuardOptions {
  /** Lift the address rule (loopback, private ...) for development and tests. */
  readonly allowPrivate: boolean
  /** How long resolution may take before the URL counts as unresolvable. */
  readonly timeout?: Duration.Duration
}

const ALLOWED: UrlCheck = { _tag: "Allowed" }
const refused = (message: string): UrlCheck => ({ _tag: "Refused", message })

/**
 * `WebhookUrlGuard` over the system resolver (node:dns): the URL's syntax per core
 * (checkWebhookUrlSyntax), then EVERY address the host resolves to must be allowed by core's
 * address policy — one forbidden answer refuses the URL, since a later connection could get it.
 * `allowPrivate` (`WASL_WEBHOOK_ALLOW_PRIVATE`) lifts the address rule for development
 * and tests; the URL must still be https with a host name. The transport checks the address
 * actually dialled again at every connection (DNS rebinding).
 */
export const WebhookUrlGuardDns = (options: WebhookUrlGuardOptions): Layer.Layer<WebhookUrlGuard> =>
  Layer.succeed(
    WebhookUrlGuard,
    WebhookUrlGuard.of({
      check: (url) =>
        Effect.gen(function*() {
          const syntax = checkWebhookUrlSyntax(url)
          if (!syntax.ok) return refused(syntax.message)
          const host = syntax.url.hostname.replace(/\.$/, "")
          const addresses = yield* Effect.tryPromise(() => lookup(host, { all: true, verbatim: true })).pipe(
            Effect.timeout(options.timeout ?? Duration.seconds(5)),
            Effect.orElseSucceed(() => [] as ReadonlyArray<{ address: string }>)
          )
          if (addresses.length === 0) return refused(WebhookUrlMessage.unresolvable)
          if (options.allowPrivate) return ALLOWED
          return addresses.every((a) => classifyAddress(a.address).allowed) ? ALLOWED : refused(WebhookUrlMessage.forbidden)
        })
    })
  )
