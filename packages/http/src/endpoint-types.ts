/**
 * The vocabulary the contract's endpoints are declared in. Every endpoint's type is written out
 * (JSR publishes no inferred types), and most of them share the same slots: no query or headers
 * schema, JSON answers, the errors nearly every endpoint declares. These names say those slots
 * once, so each endpoint's type states only what is its own; each stands for exactly the type it
 * expands to.
 */
import { Schema } from "effect"
import type { HttpMethod } from "effect/http"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { type CommonErrors, Forbidden403, NotFound404, Unauthenticated401, Validation422 } from "./errors.ts"
import type { Authentication } from "./security.ts"

/** What sets an endpoint of Wasl apart: its path parameters, body, answer, errors and own middleware. */
export interface EndpointSpec {
  /** The path parameters (`KindParams`, `RecordParams`, `PathParams<...>`); none when absent. */
  readonly params?: Schema.Top
  /** The JSON body's schema; none when absent. */
  readonly payload?: Schema.Top
  /** The answer's schema. */
  readonly success: Schema.Top
  /** The declared errors, as a union of their schemas; `CommonErrors` when absent. */
  readonly error?: Schema.Top
  /** A middleware of the endpoint itself, beside its group's; none when absent. */
  readonly middleware?: unknown
}

/**
 * An endpoint of Wasl's contract: `Method Path` named `Name`, with no query or headers schema, a
 * JSON body and answer, and the errors and parts `Spec` gives. For example
 * `WaslEndpoint<"show", "GET", "/:kind/:id", { params: RecordParams; success: DataAnswer<typeof RecordView> }>`
 * is `HttpApiEndpoint.HttpApiEndpoint<"show", "GET", "/:kind/:id", RecordParams, never, never, never,
 * Schema.toCodecJson<DataAnswer<typeof RecordView>>, Schema.toCodecJson<CommonErrors>>`.
 */
export type WaslEndpoint<Name extends string, Method extends HttpMethod.HttpMethod, Path extends string, Spec extends EndpointSpec> =
  // A part the spec leaves out is `never`, as `HttpApiEndpoint.get(...)` and the others infer it
  // when their option is absent, so the expansion is the type those constructors give.
  HttpApiEndpoint.HttpApiEndpoint<
    Name,
    Method,
    Path,
    Spec extends { readonly params: infer P extends Schema.Top } ? P : never,
    never,
    Spec extends { readonly payload: infer P extends Schema.Top } ? Schema.toCodecJson<P> : never,
    never,
    Schema.toCodecJson<Spec["success"]>,
    Schema.toCodecJson<Spec extends { readonly error: infer E extends Schema.Top } ? E : CommonErrors>,
    Spec extends { readonly middleware: infer M } ? M : never
  >

/**
 * A group of endpoints behind `Authentication`, under `/api`: the type of
 * `HttpApiGroup.make(Name).add(...).middleware(Authentication).prefix("/api")`.
 */
export type AuthenticatedGroup<Name extends string, Endpoints extends HttpApiEndpoint.Constraint> = HttpApiGroup.AddPrefix<
  HttpApiGroup.AddMiddleware<HttpApiGroup.HttpApiGroup<Name, Endpoints>, Authentication>,
  "/api"
>

/** Path parameters with the given fields, as an endpoint carries them (`:id` → `PathParams<{ id: Schema.String }>`). */
export type PathParams<Fields extends Schema.Struct.Fields> = Schema.toCodecStringTree<Schema.Struct<Fields>>

/** The errors nearly every authenticated endpoint declares (`CommonErrors`: 401, 403, 404, 422), as its `error` option. */
export const commonErrors: ReadonlyArray<CommonErrors> = [Unauthenticated401, Forbidden403, NotFound404, Validation422]

/** The answer `{ data }`: one view (or a list of them) in `data`, as reads answer. */
export type DataAnswer<View extends Schema.Top> = Schema.Struct<{ readonly data: View }>
/** The answer `{ data }` over the given view's schema. */
export const DataAnswer = <View extends Schema.Top>(data: View): DataAnswer<View> => Schema.Struct({ data })

/** The answer `{ data, message }`: the view written and the write's message (see `CREATED`, `MODIFIED`). */
export type DataMessageAnswer<View extends Schema.Top> = Schema.Struct<{ readonly data: View; readonly message: Schema.String }>
/** The answer `{ data, message }` over the given view's schema. */
export const DataMessageAnswer = <View extends Schema.Top>(data: View): DataMessageAnswer<View> =>
  Schema.Struct({ data, message: Schema.String })
