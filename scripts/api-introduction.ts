/**
 * `npm run docs:api-introduction`: writes `packages/http/src/api-introduction.ts` from
 * `docs/api-introduction.md`, the one text of the API's introduction. The README links the
 * Markdown; the OpenAPI document opens with it (`info.description`, the top of `/docs`). The
 * package carries it as a module, not a file read at run time, so it works wherever the package
 * is bundled or run (Node, Deno). `packages/http/test/api-introduction.test.ts` fails when the
 * two differ.
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

/** The module's source for the given Markdown: one template literal, escaped. */
export const introductionModule = (markdown: string): string =>
  `/**
 * The API's introduction in Markdown: the OpenAPI document's \`info.description\`, the opening of
 * \`/docs\`. Generated from docs/api-introduction.md (which the README links) by
 * \`npm run docs:api-introduction\`: edit the Markdown, not this file.
 */

/** The introduction: authentication, pagination, filters, errors, webhooks and how to verify them, OTP. */
export const API_INTRODUCTION: string = \`${markdown.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\`
`

if (import.meta.main) {
  const markdown = Fs.readFileSync(`${root}docs/api-introduction.md`, "utf8")
  Fs.writeFileSync(`${root}packages/http/src/api-introduction.ts`, introductionModule(markdown))
  console.log("wrote packages/http/src/api-introduction.ts")
}
