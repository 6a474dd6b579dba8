/**
 * A page loaded when first opened, with the texts of such pages (`team-messages`), so neither
 * weighs on the first load.
 */
import { type ComponentType, lazy } from "react"

export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(async () => {
    const [page] = await Promise.all([load(), import("../i18n/team-messages")])
    return { default: page }
  })
