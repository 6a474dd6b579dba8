/**
 * Effect's Schema JIT compiler on the API's own schemas: generated decoders and encoders instead of
 * Schema's interpreter for what every request decodes and every answer encodes.
 */
import { SchemaAST } from "effect"
import { HttpApi, type HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { SchemaJITCompiler } from "effect/schema"

/**
 * Enables the JIT on every endpoint's request schemas (path params, query, headers, payloads: the
 * side HttpApi decodes) and on its answers and errors flipped (the side it encodes: encoding is
 * decoding the flipped AST, which `SchemaAST.flip` memoizes, so the AST enabled here is the one
 * HttpApi's response codecs reach). Call it before the API's layer is built: a codec made earlier
 * keeps the interpreter. Compilation is lazy, on an endpoint's first request.
 *
 * The JIT is marked unstable in Effect 4.1. It is safe here because it changes no answer: its
 * fast path only returns values that decode, and on any failure it answers "invalid" and the
 * interpreter runs again to build the very same issue (so 422 bodies are unchanged); parts it
 * cannot generate (transformations such as the wire timestamps, declarations) stay interpreted;
 * where `new Function` is unavailable (a locked-down runtime) nothing compiles and the interpreter
 * runs as before. Measured in isolation, encoding `GET /api/me`'s answer as HttpApi does takes about
 * a quarter less CPU.
 */
export const compileApiSchemas = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): void =>
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, errors, successes }) => {
      for (const schema of [endpoint.params, endpoint.query, endpoint.headers]) {
        if (schema !== undefined) SchemaJITCompiler.enable(schema.ast)
      }
      endpoint.payload.forEach(({ encoding, schemas }) => {
        if (encoding._tag !== "Stream") schemas.forEach((schema) => SchemaJITCompiler.enable(schema.ast))
      })
      for (const answers of [successes, errors]) {
        answers.forEach((schemas) =>
          schemas.forEach((schema) =>
            SchemaJITCompiler.enable(SchemaAST.flip((HttpApiSchema.isWithHeaders(schema) ? schema.schema : schema).ast))
          )
        )
      }
    }
  })
