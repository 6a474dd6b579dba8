/**
 * The REST API as an `effect/http-api` declaration: `WaslApi` and its endpoint groups, the path,
 * query and body schemas, the paginator and the answers' shapes; what the OpenAPI document and the
 * typed client are made from.
 *
 * @module
 */
export * from "./api.ts"
export * from "./campaigns-api.ts"
export * from "./deleted-answer.ts"
export * from "./deliveries-api.ts"
export * from "./endpoint-types.ts"
export * from "./health-api.ts"
export * from "./history-api.ts"
export * from "./idempotency-openapi.ts"
export * from "./imports-api.ts"
export { KindFromPath, type KindParams, type RecordParams } from "./kind-params.ts"
export { Pagination } from "./list-request.ts"
export * from "./paginator.ts"
export * from "./query-string.ts"
export * from "./messages.ts"
export * from "./members-api.ts"
export * from "./messaging-api.ts"
export * from "./conversations-api.ts"
export * from "./notes-api.ts"
export * from "./notifications-api.ts"
export * from "./otp-api.ts"
export * from "./properties-api.ts"
export * from "./pipelines-api.ts"
export { AccountSummary, PropertyGroupView, PropertyView, UserSummary } from "./property-views.ts"
export * from "./record-links-api.ts"
export * from "./records-api.ts"
export * from "./profile-api.ts"
export * from "./two-factor-api.ts"
export * from "./teams-api.ts"
export * from "./views-api.ts"
export * from "./webhooks-api.ts"
