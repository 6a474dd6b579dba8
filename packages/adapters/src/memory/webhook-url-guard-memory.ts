import { checkWebhookUrlSyntax, type UrlCheck, WebhookUrlGuard, WebhookUrlMessage } from "@wasl/core/Webhooks"
import { Effect, Layer } from "effect"

/** Options of `WebhookUrlGuardMemory`. */
export interface WebhookUrlGuardMemoryOptions {
  /**
   * Hosts refused as if they resolved to a forbidden address (for tests of the 422); compared
   * without regard to case or a final dot.
   */
  readonly deny?: ReadonlyArray<string> | undefined
}

const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, "")

/**
 * `WebhookUrlGuard` without name resolution: every URL that passes core's syntax rule (https, a
 * host name, at most 2,048 characters) is allowed, but for the hosts of `deny`.
 */
export const WebhookUrlGuardMemory = (options: WebhookUrlGuardMemoryOptions = {}): Layer.Layer<WebhookUrlGuard> => {
  const denied = new Set((options.deny ?? []).map(normalHost))
  return Layer.succeed(
    WebhookUrlGuard,
    WebhookUrlGuard.of({
      check: (url) =>
        Effect.sync((): UrlCheck => {
          const syntax = checkWebhookUrlSyntax(url)
          if (!syntax.ok) return { _tag: "Refused", message: syntax.message }
          return denied.has(normalHost(syntax.url.hostname))
            ? { _tag: "Refused", message: WebhookUrlMessage.forbidden }
            : { _tag: "Allowed" }
        })
    })
  )
}
