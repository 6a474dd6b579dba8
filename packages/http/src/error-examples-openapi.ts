/**
 * Examples of the error answers in the OpenAPI document: what a client gets, per status, with
 * the messages Wasl answers. An `OpenApi.Transform` of `WaslApi`: an example belongs to an answer
 * in the document, not to the error's schema (whose decoded side is a class).
 */
import { TOO_MANY_ATTEMPTS } from "@wasl/core/Auth"
import { NOT_FOUND_MESSAGE, UNAUTHENTICATED_MESSAGE } from "@wasl/core/Errors"

/** An example body per error status (422: the Laravel body, every failing field in dot notation). */
export const ERROR_EXAMPLES: Readonly<Record<string, unknown>> = {
  "401": { message: UNAUTHENTICATED_MESSAGE },
  "403": { message: "This action is unauthorized." },
  "404": { message: NOT_FOUND_MESSAGE },
  "422": {
    message: "The name.en field is required.",
    errors: { "name.en": ["The name.en field is required."] }
  },
  "429": { message: TOO_MANY_ATTEMPTS }
}

/** Adds `ERROR_EXAMPLES` to the JSON error answers of every operation that has none. */
export const exemplifyErrors = (document: Record<string, any>): Record<string, any> => {
  for (const item of Object.values<Record<string, any>>(document["paths"] ?? {})) {
    for (const operation of Object.values<any>(item)) {
      for (const [status, response] of Object.entries<any>(operation?.responses ?? {})) {
        const media = response?.content?.["application/json"]
        if (media === undefined || ERROR_EXAMPLES[status] === undefined || "example" in media) continue
        media.example = ERROR_EXAMPLES[status]
      }
    }
  }
  return document
}
