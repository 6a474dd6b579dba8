import { Effect, type Layer } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import {
  createProperty,
  createPropertyGroup,
  deleteProperty,
  deletePropertyGroup,
  getProperty,
  getPropertyGroup,
  listProperties,
  listPropertyGroups,
  updateProperty,
  updatePropertyGroup
} from "@wasl/core/Records"
import { WaslApi } from "../api.ts"
import { domain } from "../errors.ts"
import type { WaslHttpServices } from "../http-services.ts"
import { CREATED, DELETED, MODIFIED } from "../messages.ts"
import { groupView, propertyView } from "../property-views.ts"
import { type Authentication, CurrentPrincipal } from "../security.ts"

/** The handlers of the `properties` group: property definitions and groups, answered with their owners. */
export const PropertyHandlers: Layer.Layer<
  HttpApiGroup.Service<"wasl", "properties">,
  never,
  Authentication | HttpRouter.Request.From<"Requires", WaslHttpServices>
> = HttpApiBuilder.group(WaslApi, "properties", (handlers) =>
  handlers
    .handle("listGroups", ({ params }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const groups = yield* domain(listPropertyGroups(principal, params.kind))
        return { data: yield* Effect.forEach(groups, (g) => groupView(principal.accountId, g, false)) }
      }))
    .handle("createGroup", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const group = yield* domain(createPropertyGroup(principal, params.kind, payload))
        return { data: yield* groupView(principal.accountId, group, true), message: CREATED }
      }))
    .handle("showGroup", ({ params }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const group = yield* domain(getPropertyGroup(principal, params.kind, params.id))
        return { data: yield* groupView(principal.accountId, group, false) }
      }))
    .handle("updateGroup", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const group = yield* domain(updatePropertyGroup(principal, params.kind, params.id, payload))
        return { data: yield* groupView(principal.accountId, group, true), message: MODIFIED }
      }))
    .handle("deleteGroup", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deletePropertyGroup(yield* CurrentPrincipal, params.kind, params.id))
        return { message: DELETED, data: [] as const }
      }))
    .handle("list", ({ params }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const properties = yield* domain(listProperties(principal, params.kind))
        return { data: yield* Effect.forEach(properties, (p) => propertyView(principal.accountId, p)) }
      }))
    .handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const property = yield* domain(createProperty(principal, params.kind, payload))
        return { data: yield* propertyView(principal.accountId, property), message: CREATED }
      }))
    .handle("show", ({ params }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const property = yield* domain(getProperty(principal, params.kind, params.id))
        return { data: yield* propertyView(principal.accountId, property) }
      }))
    .handle("update", ({ params, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        const property = yield* domain(updateProperty(principal, params.kind, params.id, payload))
        return { data: yield* propertyView(principal.accountId, property), message: MODIFIED }
      }))
    .handle("delete", ({ params }) =>
      Effect.gen(function*() {
        yield* domain(deleteProperty(yield* CurrentPrincipal, params.kind, params.id))
        return { message: DELETED, data: [] as const }
      })))
