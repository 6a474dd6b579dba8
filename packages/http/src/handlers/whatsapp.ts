import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import { NOT_FOUND_MESSAGE, UNAUTHENTICATED_MESSAGE } from "@wasl/core/Errors"
import { makeWhatsAppReceiver } from "@wasl/core/WhatsApp"
import { WaslApi } from "../api.ts"
import { Forbidden403, NotFound404, Unauthenticated401 } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { countWhatsAppWebhook } from "../whatsapp-metrics.ts"

/**
 * The handlers of the `whatsapp` group, over the receiver of the settings (`WhatsAppWebhookSettings`,
 * read once when the routes are built): without them, both routes answer 404.
 */
export const WhatsAppHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "whatsapp">,
  never,
  HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "whatsapp", (handlers) =>
  Effect.gen(function*() {
    const receiver = yield* makeWhatsAppReceiver
    const notFound = new NotFound404({ message: NOT_FOUND_MESSAGE })
    return handlers
      .handle("verify", ({ query }) =>
        receiver === undefined
          ? Effect.fail(notFound)
          : Effect.flatMap(
            receiver.verify({ mode: query["hub.mode"], verifyToken: query["hub.verify_token"], challenge: query["hub.challenge"] }),
            (challenge) =>
              challenge === undefined
                ? Effect.fail(new Forbidden403({ message: "The verify token or the mode is not right." }))
                : Effect.succeed(challenge)
          ))
      .handle("receive", ({ headers, payload }) =>
        receiver === undefined
          ? Effect.fail(notFound)
          : Effect.gen(function*() {
            const receipt = yield* receiver.receive(payload, headers["x-hub-signature-256"])
            yield* countWhatsAppWebhook(receipt)
            if (receipt === "unauthentic") return yield* new Unauthenticated401({ message: UNAUTHENTICATED_MESSAGE })
          }))
  }))
