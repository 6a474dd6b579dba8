/**
 * A page loaded when first opened, with the texts of such pages (`team-messages`), so neither
 * weighs on the first load.
 */
import { type ComponentType, lazy } from "react"
import { addMessages } from "../i18n/i18n"

export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(async () => {
    const [page, { teamEn, teamAr }] = await Promise.all([load(), import("../i18n/team-messages")])
    addMessages({ en: teamEn, ar: teamAr })
    return { default: page }
  })
