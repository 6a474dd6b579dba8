/**
 * A page (or a part of one) loaded when first opened, with the texts that come with it (the team
 * and account pages' `team-messages` unless told), so neither weighs on the first load.
 */
import { type ComponentType, lazy } from "react"
import { addMessages, type Language } from "../i18n/i18n"

/** Texts by language, as a later-loaded module exports them. */
export type LazyTexts = Readonly<Record<Language, Readonly<Record<string, string>>>>

const teamTexts = () => import("../i18n/team-messages").then(({ teamAr, teamEn }): LazyTexts => ({ en: teamEn, ar: teamAr }))

export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>, texts: () => Promise<LazyTexts> = teamTexts) =>
  lazy(async () => {
    const [page, tables] = await Promise.all([load(), texts()])
    addMessages(tables)
    return { default: page }
  })
