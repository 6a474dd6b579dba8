import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { createToken, listTokens, revokeToken } from "@wasl/core"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import { DELETED } from "../messages.ts"
import { CurrentPrincipal } from "../security.ts"

export const TokenHandlers = HttpApiBuilder.group(WaslApi, "tokens", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function*() {
        return { data: yield* domain(listTokens(yield* CurrentPrincipal)) }
      }))
    .handle("create", ({ payload }) =>
      Effect.gen(function*() {
        const { plainText, token } = yield* domain(createToken(yield* CurrentPrincipal, payload))
        return { data: token, token: plainText }
      }))
    .handle("revoke", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(revokeToken(yield* CurrentPrincipal, params.id))
        return { message: DELETED, data: [] as const }
      })))
