import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { currentUser } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { CurrentPrincipal } from "../security.ts"

export const MeHandlers = HttpApiBuilder.group(WaslApi, "me", (handlers) =>
  handlers.handle("show", () =>
    Effect.gen(function*() {
      return yield* domain(currentUser(yield* CurrentPrincipal))
    })))
