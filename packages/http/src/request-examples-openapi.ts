/**
 * Examples of request bodies in the OpenAPI document, for the bodies whose schema is a free-form
 * object (the use-case validates them with Laravel's messages): what a first call can send.
 */

/** A named example of a request body: a one-line summary and the body. */
export interface RequestExample {
  /** What the example shows. */
  readonly summary: string
  /** The JSON body. */
  readonly value: Record<string, unknown>
}

/**
 * An operation transform (`OpenApi.Transform` of an endpoint) that adds the named examples to
 * the operation's JSON request body.
 */
export const withRequestExamples = (
  examples: Readonly<Record<string, RequestExample>>
): (operation: Record<string, any>) => Record<string, any> =>
(operation) => {
  const media = operation["requestBody"]?.content?.["application/json"]
  if (media !== undefined) media.examples = { ...media.examples, ...examples }
  return operation
}
