import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  createRecord,
  createRecords,
  deleteRecord,
  deleteRecords,
  getRecord,
  listRecords,
  updateRecord,
  updateRecords,
  upsertRecords
} from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { listRequest } from "../list-request.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { recordListAnswer, recordShownAnswer, recordWrittenAnswer } from "../record-answers.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `records` group: the records of the six kinds. */
export const RecordHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "records">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "records", (handlers) =>
  handlers
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        const request = yield* listRequest
        return recordListAnswer(request, yield* domain(listRecords(yield* CurrentPrincipal, params.kind, request.input)))
      }))
    .handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(createRecord(yield* CurrentPrincipal, params.kind, payload))
        return recordWrittenAnswer(data, CREATED, 201)
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        return recordShownAnswer(yield* domain(getRecord(yield* CurrentPrincipal, params.kind, params.id)))
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const data = yield* domain(updateRecord(yield* CurrentPrincipal, params.kind, params.id, payload))
        return recordWrittenAnswer(data, MODIFIED, 200)
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteRecord(yield* CurrentPrincipal, params.kind, params.id))
        return { message: DELETED, data: [] as const }
      }))
    .handle("batchCreate", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(createRecords(yield* CurrentPrincipal, params.kind, payload)), message: CREATED }
      }))
    .handle("batchUpdate", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(updateRecords(yield* CurrentPrincipal, params.kind, payload)), message: MODIFIED }
      }))
    .handle("batchDelete", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(deleteRecords(yield* CurrentPrincipal, params.kind, payload)), message: DELETED }
      }))
    .handle("batchUpsert", ({ params, payload }) =>
      Effect.gen(function*() {
        return { data: yield* domain(upsertRecords(yield* CurrentPrincipal, params.kind, payload)), message: MODIFIED }
      })))
