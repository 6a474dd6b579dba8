/**
 * The language in use (English or Arabic, kept in localStorage), its text direction on <html>,
 * and `t` to look a text up: in the first load's tables, or in those a later-loaded page added.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react"
import { ar, en, type MessageKey } from "./messages"

export type Language = "en" | "ar"

const TABLES: Record<Language, Record<string, string>> = { en: { ...en }, ar: { ...ar } }

/** Adds the texts of pages loaded after the first load (before they render: they come with them). */
export const addMessages = (tables: Readonly<Record<Language, Readonly<Record<string, string>>>>): void => {
  Object.assign(TABLES.en, tables.en)
  Object.assign(TABLES.ar, tables.ar)
}
const STORAGE_KEY = "wasl.language"

export interface I18n {
  readonly language: Language
  readonly t: (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string
  readonly setLanguage: (language: Language) => void
  /** Formats an API timestamp for the language. */
  readonly date: (value: string | null | undefined) => string
}

const I18nContext = createContext<I18n | undefined>(undefined)

const initialLanguage = (): Language => (localStorage.getItem(STORAGE_KEY) === "ar" ? "ar" : "en")

export const I18nProvider = ({ children }: { readonly children: ReactNode }) => {
  const [language, setLanguage] = useState<Language>(initialLanguage)
  useEffect(() => {
    document.documentElement.lang = language
    document.documentElement.dir = language === "ar" ? "rtl" : "ltr"
    localStorage.setItem(STORAGE_KEY, language)
  }, [language])
  const value = useMemo<I18n>(() => {
    const table = TABLES[language]
    const dates = new Intl.DateTimeFormat(language === "ar" ? "ar" : "en", { dateStyle: "medium", timeStyle: "short" })
    return {
      language,
      setLanguage,
      t: (key, values) => (table[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? "")),
      date: (text) => (text ? dates.format(new Date(text)) : "")
    }
  }, [language])
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>
}

export const useI18n = (): I18n => {
  const value = useContext(I18nContext)
  if (value === undefined) throw new Error("useI18n outside I18nProvider")
  return value
}

/** A bilingual name ({ en, ar }) in the language in use, falling back to the other one. */
export const localized = (name: { readonly en?: string | undefined; readonly ar?: string | undefined } | unknown[] | null | undefined, language: Language): string => {
  if (name === null || name === undefined || Array.isArray(name)) return ""
  return (language === "ar" ? name.ar || name.en : name.en || name.ar) ?? ""
}
