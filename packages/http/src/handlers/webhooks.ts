import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  activateWebhook,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
  validateWebhook
} from "@wasl/core/Webhooks"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { WEBHOOK_CREATED, WEBHOOK_DELETED, WEBHOOK_MODIFIED } from "../messages.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** A path id: decimal digits only, else NaN (which the use-cases answer with 404). */
const webhookId = (raw: string): number => /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN

/** The handlers of the `webhooks` group: the account's webhooks. */
export const WebhookHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "webhooks">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "webhooks", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function*() {
        return { data: yield* domain(listWebhooks(yield* CurrentPrincipal)) }
      }))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(createWebhook(yield* CurrentPrincipal, payload)), message: WEBHOOK_CREATED }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(getWebhook(yield* CurrentPrincipal, webhookId(params.id))) }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(updateWebhook(yield* CurrentPrincipal, webhookId(params.id), payload))
        return { data, message: WEBHOOK_MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteWebhook(yield* CurrentPrincipal, webhookId(params.id)))
        return { message: WEBHOOK_DELETED, data: [] as const }
      }))
    .handle("validate", ({ params }) =>
      Effect.gen(function*() {
        return { data: yield* domain(validateWebhook(yield* CurrentPrincipal, webhookId(params.id))) }
      }))
    .handle("activate", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(activateWebhook(yield* CurrentPrincipal, webhookId(params.id), payload))
        return { data, message: WEBHOOK_MODIFIED }
      })))
