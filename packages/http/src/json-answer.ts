/**
 * A handler's answer encoded with its schema compiled once into a synchronous encoder, instead of
 * by HttpApi's encoding of the endpoint's success schema on every request, which builds an effect
 * for every node of the schema (and first picks the success case out of the union of the
 * endpoint's answers). Same schema, so the same bytes; for the hot endpoints, whose bodies are
 * large (`GET /api/me`).
 */
import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/** `value` encoded by `schema` as a JSON answer with `status`; `schema` is compiled once, here. */
export const jsonAnswer = <S extends Schema.Codec<unknown, unknown>>(schema: S, status = 200) => {
  const encode = Schema.encodeSync(schema)
  return (value: S["Type"]): HttpServerResponse.HttpServerResponse =>
    HttpServerResponse.text(JSON.stringify(encode(value)), { status, contentType: "application/json" })
}
