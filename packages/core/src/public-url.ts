/**
 * Where Wasl is reached from outside (`WASL_PUBLIC_URL`): the base of every absolute link it
 * writes, in an answer (a list's page links) or in a mail, whatever Host a request carries.
 */
import { Context, Effect, Result } from "effect"

/**
 * The public base URL, without a trailing slash (`https://crm.example.com`, or with the path
 * prefix a proxy strips, `https://example.com/crm`); undefined (the default) when not set, and then
 * an answer's links are on the request's own host and a mail names paths alone.
 */
export const PublicUrl: Context.Reference<string | undefined> = Context.Reference<string | undefined>(
  "@wasl/core/PublicUrl",
  { defaultValue: () => undefined }
)

/** The accepted form of a public URL, as a refusal states it. */
export const PUBLIC_URL_FORM = "an absolute http(s) URL without query or fragment, such as https://crm.example.com"

/**
 * Reads a public URL: an absolute `http` or `https` URL, with a path prefix or none, and no
 * credentials, query or fragment (they would be repeated in every link). Answers it normalised as
 * `PublicUrl` holds it (no trailing slash), or fails with the accepted form.
 */
export const parsePublicUrl = (text: string): Result.Result<string, string> => {
  const trimmed = text.trim()
  const url = URL.parse(trimmed)
  const usable = url !== null && (url.protocol === "http:" || url.protocol === "https:") &&
    url.username === "" && url.password === "" && !trimmed.includes("?") && !trimmed.includes("#")
  return usable ? Result.succeed(url.origin + url.pathname.replace(/\/+$/, "")) : Result.fail(PUBLIC_URL_FORM)
}

/** The link to `path` (from its leading `/`): under the public URL when one is set, else `path` as it is. */
export const publicLink = (path: string): Effect.Effect<string> =>
  Effect.map(PublicUrl, (base) => base === undefined ? path : base + path)
