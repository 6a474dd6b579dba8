/**
 * A page loaded when first opened, with the texts of such pages (`team-messages` unless the page
 * names its own, as the sending pages do with `sending-messages`), so neither weighs on the first load.
 */
import { type ComponentType, lazy } from "react"
import { addMessages, type Language } from "../i18n/i18n"

/** Loads the texts a lazily loaded page shows, in both languages. */
export type PageTexts = () => Promise<Readonly<Record<Language, Readonly<Record<string, string>>>>>

const teamTexts: PageTexts = () => import("../i18n/team-messages").then(({ teamEn, teamAr }) => ({ en: teamEn, ar: teamAr }))

export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>, texts: PageTexts = teamTexts) =>
  lazy(async () => {
    const [page, tables] = await Promise.all([load(), texts()])
    addMessages(tables)
    return { default: page }
  })
